// The store keys a contact as `channel:serviceId`; managers and Slack write `channel/serviceId`. Both
// forms are defined once, in src/shared/contact-key.ts.
export { conversationKey as contactKey, keyFromSlashForm, slashForm, splitKey } from '../shared/contact-key.js';
