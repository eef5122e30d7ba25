import type { Route } from '../api-types.js';
import { contactRoutes } from './contact-routes.js';
import { handoverRoutes } from './handover-routes.js';
import { mediaRoutes } from './media-routes.js';
import { mentionRoutes } from './mention-routes.js';
import { publisherAddRoutes } from './publisher-add.js';
import { publisherMentionRoutes } from './publisher-mention-routes.js';
import { scheduleRoutes } from './schedule-routes.js';
import { settingsListRoutes } from './settings-list-routes.js';
import { toolRoutes } from './tool-routes.js';
import { userRoutes } from './user-routes.js';

/** Every API path the simulator serves; account-free paths first. */
export const allRoutes: readonly Route[] = [
  ...toolRoutes,
  ...handoverRoutes,
  ...contactRoutes,
  ...mentionRoutes,
  ...publisherAddRoutes,
  ...mediaRoutes,
  ...publisherMentionRoutes,
  ...userRoutes,
  ...scheduleRoutes,
  ...settingsListRoutes,
];
