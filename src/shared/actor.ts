/** Who acts on the bridge from outside: a manager in Slack or at the terminal. */
export interface Actor {
  readonly id: string;
  readonly name?: string;
  readonly transport: 'slack' | 'cli';
}

/** How the audit log names an actor: `transport:id`, e.g. `slack:U024BE7LH` or `cli:terminal`. */
export function actorText(actor: Pick<Actor, 'id' | 'transport'>): string {
  return `${actor.transport}:${actor.id}`;
}
