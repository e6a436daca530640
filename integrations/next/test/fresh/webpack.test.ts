// The same fresh app and scenarios as ./turbopack.test.ts, built with `next build --webpack`.
import { freshAppSuite } from './suite.ts';

freshAppSuite('webpack');
