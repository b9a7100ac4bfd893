import { campaignsDecline } from '../shared/admin/campaigns';
import { adminHandler } from '../shared/admin/handler';
import { adminServices } from '../shared/admin/services';
import { runtime } from '../shared/runtime';

// The full runtime: a decision settles the campaign's message, and a final status raises webhook events.
const rt = runtime();

export const handler = adminHandler(campaignsDecline, rt, adminServices(rt));
