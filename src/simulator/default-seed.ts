import type { SeedInput } from './seed-schema.js';

const ALL_SCOPES = ['accounts_read', 'accounts_write', 'accounts_handover', 'identity'];
const WEEKDAYS = [1, 2, 3, 4, 5];

/** The demo account every simulator starts with unless `--seed FILE` replaces it. */
export const defaultSeed: SeedInput = {
  account: { id: '1001', name: 'Demo account' },
  application: { id: 'bridge-app', allow_listed: true },
  topics: [{ id: 2001, name: 'Support' }],
  profiles: [
    { type: 'web', service_id: 'web-1001', name: 'Website chat' },
    { type: 'whatsapp', service_id: '3225550100', name: 'Demo WhatsApp' },
    { type: 'viber', service_id: 'viber-1001', name: 'Demo Viber' },
    { type: 'twilio', service_id: '+3225550101', name: 'Demo SMS' },
    { type: 'facebook', service_id: 'fb-1001', name: 'Demo Facebook page' },
  ],
  roles: [
    { id: 'r1', name: 'Admin', topics: [2001], permissions: ['inbox', 'publisher', 'settings'] },
    { id: 'r2', name: 'Agent', topics: [2001], permissions: ['inbox', 'publisher'] },
  ],
  users: [
    {
      id: 'u1',
      name: 'Bridge Bot',
      email: 'bot@example.com',
      account_role: 'r1',
      business_hours_schedule_id: '301',
      status: 'Available',
      avatar: 'https://example.com/avatars/u1.png',
    },
    {
      id: 'u2',
      name: 'Alice Agent',
      email: 'alice@example.com',
      account_role: 'r2',
      business_hours_schedule_id: '301',
      status: 'Available',
      avatar: 'https://example.com/avatars/u2.png',
    },
  ],
  tokens: [{ token: 'sim-token', user_id: 'u1', scopes: ALL_SCOPES }],
  canned_responses: [
    {
      id: '501',
      name: 'Main menu',
      type: 'buttons',
      message: 'How can we help you?',
      data: {
        buttons: [
          { id: 'b1', title: 'Opening hours', payload: 'opening_hours' },
          { id: 'b2', title: 'Order status', payload: 'order_status' },
          { id: 'b3', title: 'Talk to an agent', payload: 'agent' },
        ],
      },
    },
    { id: '502', name: 'Greeting', type: 'text', message: 'Hello! Thanks for contacting us.' },
    { id: '503', name: 'Satisfaction', type: 'csat', message: 'How did we do?' },
  ],
  business_hours_schedules: [
    {
      id: '301',
      name: 'Support desk',
      timezone: 'Europe/Brussels',
      periods: WEEKDAYS.map((dayofweek) => ({ dayofweek, start: '0900', end: '1700' })),
    },
  ],
  profile_groups: [
    {
      id: '401',
      name: 'Chat channels',
      color: '#1f77b4',
      profiles: [
        { type: 'whatsapp', service_id: '3225550100' },
        { type: 'web', service_id: 'web-1001' },
      ],
    },
  ],
  tags: [
    { id: '601', name: 'vip' },
    { id: '602', name: 'escalated' },
  ],
};
