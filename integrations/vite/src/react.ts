import { getShared, type SvcClient } from '@svc/runtime';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { failureReport } from '@svc/runtime/kit';

export interface SvcErrorBoundaryProps {
  children?: ReactNode;
  /** Shown after a render error; a function gets the error and a `reset`. @default null */
  fallback?: ReactNode | ((error: unknown, reset: () => void) => ReactNode);
  /** Your own handler, still called after the report. @default undefined */
  onError?: (error: unknown, info: ErrorInfo) => void;
  /** The client to report with. @default the shared client (`initShared`) */
  client?: SvcClient;
}

interface State {
  error: unknown;
  failed: boolean;
}

/**
 * React error boundary: reports render errors as the `error-boundary` failure of every integration
 * (`TypeError: ... (React component)`, tags `vite`, `browser`, `error-boundary`), then calls
 * `onError`.
 */
export class SvcErrorBoundary extends Component<SvcErrorBoundaryProps, State> {
  override state: State = { error: undefined, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    try {
      const report = failureReport('error-boundary', 'vite', error, { ui: 'React' });
      (this.props.client ?? getShared())?.[report.method](report.title, error, report.tags);
    } catch {
      // never throw into the app
    }
    this.props.onError?.(error, info);
  }

  reset = (): void => this.setState({ error: undefined, failed: false });

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    const { fallback } = this.props;
    return typeof fallback === 'function'
      ? fallback(this.state.error, this.reset)
      : (fallback ?? null);
  }
}
