import type { ToolDefinition } from '@quire/contracts';
import { toolPageOf } from '../tool/toolPages';
import { Icon } from './Icon';

/** The tool's icon on a tile of its colour (a page's own, where pages share a tool). */
export function ToolIcon({ tool, size = 40 }: { tool: Pick<ToolDefinition, 'slug'>; size?: number }) {
  const { look } = toolPageOf(tool);
  return (
    <span className="tool-icon" style={{ background: look.color, width: size, height: size }}>
      <Icon name={look.icon} size={Math.round(size * 0.55)} />
    </span>
  );
}
