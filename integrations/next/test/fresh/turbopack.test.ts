// The Done-when of the Next.js integration with Turbopack (`next build`'s default): see ./suite.ts.
import { freshAppSuite } from './suite.ts';

freshAppSuite('turbopack');
