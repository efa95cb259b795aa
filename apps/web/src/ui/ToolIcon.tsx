import type { ToolDefinition } from '@quire/contracts';
import { toolPageOf, type ToolLook } from '../tool/toolPages';
import { Icon } from './Icon';

/** The tool's icon on a tile of its colour (a page's own, where pages share a tool). */
export function ToolIcon({ tool, size = 40 }: { tool: Pick<ToolDefinition, 'slug'>; size?: number }) {
  return <IconTile {...toolPageOf(tool).look} size={size} />;
}

/** An icon on a tile of a colour: a tool's, or a page's listed among the tools. */
export function IconTile({ icon, color, size = 40 }: Pick<ToolLook, 'icon' | 'color'> & { size?: number }) {
  return (
    <span className="tool-icon" style={{ background: color, width: size, height: size }}>
      <Icon name={icon} size={Math.round(size * 0.55)} />
    </span>
  );
}
