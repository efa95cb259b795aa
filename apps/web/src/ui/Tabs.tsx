import type { ReactNode } from 'react';
import './tabs.css';

interface TabsProps<T extends string> {
  tabs: readonly { id: T; label: ReactNode }[];
  current: T;
  onChoose(id: T): void;
  /** Each tab's test id is this followed by its id. */
  testIdPrefix: string;
  /** What the row of tabs chooses between, for a screen reader where no heading says it. */
  label?: string;
}

/** A row of tabs underlined when chosen. */
export function Tabs<T extends string>({ tabs, current, onChoose, testIdPrefix, label }: TabsProps<T>) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map(({ id, label }) => (
        <button
          key={id}
          type="button"
          role="tab"
          aria-selected={current === id}
          className={`tab ${current === id ? 'active' : ''}`}
          data-testid={`${testIdPrefix}${id}`}
          onClick={() => onChoose(id)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
