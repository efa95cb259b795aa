import type { ReactNode } from 'react';

interface TabsProps<T extends string> {
  tabs: readonly { id: T; label: ReactNode }[];
  current: T;
  onChoose(id: T): void;
  /** Each tab's test id is this followed by its id. */
  testIdPrefix: string;
}

/** A row of tabs underlined when chosen (share.css). */
export function Tabs<T extends string>({ tabs, current, onChoose, testIdPrefix }: TabsProps<T>) {
  return (
    <div className="share-tabs" role="tablist">
      {tabs.map(({ id, label }) => (
        <button
          key={id}
          type="button"
          role="tab"
          aria-selected={current === id}
          className={`share-tab ${current === id ? 'active' : ''}`}
          data-testid={`${testIdPrefix}${id}`}
          onClick={() => onChoose(id)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
