import { campaignsHeld } from '../shared/admin/campaigns';
import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { apiCore } from '../shared/api-core';
import { HeldCampaigns } from '../shared/store/held-campaigns';

const rt = apiCore();

export const handler = adminHandler(campaignsHeld, { held: new HeldCampaigns(rt.store), messageStore: rt.messageStore }, adminServices(rt));
