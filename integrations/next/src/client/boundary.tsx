'use client';
// React error boundaries: a drop-in <SvcErrorBoundary> and a hook for app/error.tsx and
// app/global-error.tsx (which receive the error as a prop from Next's own boundary).

import { Component, type ErrorInfo, type ReactNode, useEffect } from 'react';
import { reportClientError } from './report.ts';

/**
 * Reports the error passed to an `app/error.tsx` or `app/global-error.tsx` component, once.
 * @example
 * export default function Error({ error }: { error: Error & { digest?: string } }) {
 *   useSvcErrorReport(error);
 *   return <p>Something went wrong.</p>;
 * }
 */
export function useSvcErrorReport(error: unknown): void {
  useEffect(() => {
    reportClientError(error, 'boundary');
  }, [error]);
}

export interface SvcErrorBoundaryProps {
  children?: ReactNode;
  /**
   * What to render after an error; a function gets the error and a `reset` (the same signature as
   * `@svc/vite/react`). @default null
   */
  fallback?: ReactNode | ((error: unknown, reset: () => void) => ReactNode);
}

interface State {
  error: unknown;
  failed: boolean;
}

/** Catches render errors below it, reports each once and renders `fallback`. */
export class SvcErrorBoundary extends Component<SvcErrorBoundaryProps, State> {
  override state: State = { error: undefined, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo): void {
    reportClientError(error, 'boundary');
  }

  reset = (): void => {
    this.setState({ error: undefined, failed: false });
  };

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    const { fallback } = this.props;
    if (typeof fallback === 'function') return fallback(this.state.error, this.reset);
    return fallback ?? null;
  }
}
