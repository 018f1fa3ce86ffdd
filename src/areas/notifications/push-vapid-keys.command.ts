import { generateVapidKeys } from '../../adapters/push/index.ts';
import { type CliCommand, CliError } from '../../cli/command.ts';

/** Prints a new VAPID key pair as the two environment lines Web Push needs (docs/operations.md, Web Push). */
export const pushVapidKeysCommand: CliCommand = {
  name: 'push:vapid-keys',
  usage: '',
  description: 'Print a new VAPID key pair for Web Push (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)',
  usesDatabase: false,
  async run({ print }, args) {
    if (args.length > 0) throw new CliError('usage: push:vapid-keys', 2);
    const { publicKey, privateKey } = generateVapidKeys();
    print(`VAPID_PUBLIC_KEY=${publicKey}`);
    print(`VAPID_PRIVATE_KEY=${privateKey}`);
  },
};
