// Loaded by DeferredTooltip after the first screen (ADR 048); elsewhere import Tooltip from @mantine/core.
export { Tooltip } from '@mantine/core';
