import type { ReactNode } from 'react';

/**
 * An empty or failed state with its title as a heading. `level` is the heading's place in the
 * screen's outline (one below the heading it sits under; 1 when it stands in for the screen), so
 * that heading levels never skip one.
 */
export function EmptyState({ title, level = 2, children, testId }: { title: string; level?: 1 | 2 | 3; children?: ReactNode; testId?: string }) {
  const Heading = `h${level}` as const;
  return (
    <div className="empty" data-testid={testId}>
      <Heading>{title}</Heading>
      {children}
    </div>
  );
}
