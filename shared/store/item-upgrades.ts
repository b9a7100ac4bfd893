import type { Runtime } from '../runtime';
import type { ItemUpgrade } from './migration';

/**
 * The entity types `admin migrate` upgrades, on the runtime's store. Empty until the link
 * and message upgrades exist: the migration then only walks the table.
 */
export function itemUpgrades(_rt: Runtime): ItemUpgrade[] {
  return [];
}
