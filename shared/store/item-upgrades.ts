import type { Runtime } from '../runtime';
import { campaignUpgrade } from './campaign-migration';
import { linkUpgrade } from './link-migration';
import { messageUpgrade } from './message-migration';
import type { ItemUpgrade } from './migration';

/** The entity types `admin migrate` upgrades, on the runtime's store and counters (campaigns held in moderation get the held index). */
export function itemUpgrades(rt: Runtime): ItemUpgrade[] {
  return [linkUpgrade(rt.store, rt.counted), messageUpgrade(rt.store, rt.counted), campaignUpgrade(rt.store)];
}
