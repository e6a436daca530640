import type { AlertAdmin } from '../alerts/admin.ts';
import type { BoardStore } from '../store/board-types.ts';
import type { SourceMapStore } from '../store/sourcemap-types.ts';
import type { Plan, PlanLimits } from '../store/types.ts';

/** What the board's routes are built on. */
export interface BoardDeps {
  store: BoardStore;
  /** Alert setup and the delivery log; without it the alerts page says alerts are off. */
  alerts?: AlertAdmin;
  now: () => number;
  plans: Record<Plan, PlanLimits>;
  projectQuotaShare: number;
  variantCap: number;
  /** How long a browser session lasts after signing in. @default 12 hours */
  sessionMs?: number;
  /** Reverse proxies (addresses, subnets) whose `X-Forwarded-For` names the client. @default [] */
  trustedProxies?: readonly string[];
  /** Source maps' store: a mapped card shows its code and its frames as sent. @default undefined */
  sourceMaps?: SourceMapStore;
}
