#!/usr/bin/env node
// The write flows of an exchange, driven through the official Canton wallet SDK
// (@canton-network/wallet-sdk, pinned in package.json) against a running cantonlite: external
// parties whose keys the SDK generates, and every write prepared, signed in process and executed
// (interactive submission).
//
//   cd tests/sdk && npm ci
//   node write_flow.mjs --url http://127.0.0.1:7575            # or CANTONLITE_URL=...
//
// The daemon should serve the LocalNet-shaped seed (config/localnet-network.json), as for
// read_flow.mjs. Before the steps, cantonlite's admin API takes a snapshot, moves the ledger time
// to the wall clock (the SDK picks its round and its transfer times by Date.now()) and opens a
// mining round around it, and gives the sender user's party (app-provider) a TransferPreapproval;
// at the end the network is reverted to the snapshot (--keep: not). Expected values come from the
// admin API's holdings, never from the SDK itself.
//
// Steps (SDK calls): setup (admin API only), connect (SDK.create), onboard (keys.generate,
// party.external.create().sign().execute(), for the exchange and for a customer), fund
// (amulet.tap twice), withdraw-direct (token.transfer.create to the preapproved party), send-offer
// (token.transfer.create to the customer, who has no preapproval: a transfer instruction),
// accept-offer (token.transfer.pending and accept, by the customer), preapproval
// (amulet.preapproval.command.create by the customer, which the validator accepts, then a
// direct transfer to it), preapproval-renew-cancel (amulet.preapproval.renew by the provider,
// command.cancel by the customer), merge (token.utxos.merge),
// bad-signature (a tap signed by another key is refused, nothing commits). Every prepared
// transaction is decoded (PreparedTransaction.decode()) and its hash recomputed by the SDK
// (sdk.utils.hash.preparedTransaction, V2) before it is signed: a mismatch fails the step.

import {
    admin, check, eq, eqNum, finish, launch, safeJson, short, startFlow, usage,
} from './harness.mjs';

const HELP = usage('write_flow', `  --sender-user ID     the seed user given a TransferPreapproval: the withdrawals' receiver [SENDER_USER, app-provider]
  --owner-user ID      the seed user who provides that preapproval             [OWNER_USER, app-user]`);

// Node 20 has no Object.groupBy, which the SDK's utxos.merge calls (Node 21 does).
if (!Object.groupBy) {
    Object.groupBy = (items, key) => {
        const groups = Object.create(null);
        let i = 0;
        for (const item of items) (groups[key(item, i++)] ??= []).push(item);
        return groups;
    };
}

async function main() {
    const { opts, results, ctx, want, step, auth, logAdapter } = await startFlow('write_flow', HELP);
    const { SDK } = await import('@canton-network/wallet-sdk');

    // The admin API's view of a party's unlocked holdings: their count and sum.
    const holdings = async (party) => {
        const h = (await admin('GET', '/overview')).holdings.find((x) => x.party === party);
        return { count: h?.amulets ?? 0, sum: Number(h?.amount ?? 0) };
    };
    const iso = (ms) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

    // -- setup: the admin API ---------------------------------------------------------------------
    await step('setup', async () => {
        const network = await admin('GET', '/network');
        const userParty = (id) => {
            const u = network.users.find((x) => x.id === id);
            if (!u) throw new Error(`no user '${id}' in the network (users: ${network.users.map((x) => x.id).join(', ')})`);
            return u.party;
        };
        ctx.receiver = userParty(opts.senderUser);
        const snap = await admin('POST', '/snapshots');
        ctx.snapshot = snap.id;
        const now = Date.now();
        await admin('POST', '/time', { set: iso(now) });
        await admin('POST', '/steps', [
            { step: 'open_mining_round', opens_at: iso(now - 60_000), target_closes_at: iso(now + 24 * 3600_000) },
            { step: 'create_transfer_preapproval', receiver: opts.senderUser, provider: opts.ownerUser,
              expires_at: iso(now + 30 * 24 * 3600_000) },
        ]);
        return `snapshot ${ctx.snapshot}; ledger time ${iso(now)}, a round open around it; ` +
            `TransferPreapproval for ${short(ctx.receiver)}`;
    });

    // -- connect ------------------------------------------------------------------------------------
    let sdk;
    await step('connect', async () => {
        sdk = await SDK.create({ auth, ledgerClientUrl: opts.ledgerUrl, logAdapter });
        const ext = await sdk.extend({
            amulet: { auth, validatorUrl: opts.validatorUrl, scanApiUrl: opts.scanUrl, registryUrl: opts.registryUrl },
            token: { auth, validatorUrl: opts.validatorUrl, registries: [opts.registryUrl] },
        });
        ctx.amulet = ext.amulet;
        ctx.token = ext.token;
        return `userId=${sdk.ctx.userId}`;
    });
    if (!sdk) return finish(results, opts);

    // Prepares `commands` for `party`, checks the prepared transaction as a careful exchange does
    // (decode() reads it; the SDK's own V2 hash of it is the hash answered), signs the hash with
    // `key` and executes it (executeAndWait). Returns the execution's {updateId, completionOffset}.
    const submit = async (party, key, commands, disclosedContracts) => {
        const prepared = sdk.ledger.prepare({ partyId: party, commands, disclosedContracts });
        const { response } = await prepared.toJSON();
        const decoded = await prepared.decode();
        check(decoded?.transaction?.nodes?.length > 0, `decode() read no nodes: ${safeJson(decoded, 200)}`);
        eq(decoded.metadata?.submitterInfo?.actAs?.[0], party, 'decoded metadata.submitterInfo.actAs[0]');
        const recomputed = await sdk.utils.hash.preparedTransaction(response.preparedTransaction);
        eq(recomputed.toBase64(), response.preparedTransactionHash, 'the SDK\'s V2 hash of the prepared transaction');
        return prepared.sign(key).execute({ partyId: party });
    };

    // -- onboard: two external parties with keys the SDK generates -----------------------------------
    await step('onboard', async () => {
        const onboard = async (hint) => {
            const keys = sdk.keys.generate();
            const party = await sdk.party.external.create(keys.publicKey, { partyHint: hint })
                .sign(keys.privateKey).execute();
            check(/::1220[0-9a-f]{64}$/.test(party.partyId), `party id ${party.partyId}`);
            eq(party.partyId.split('::')[1], await sdk.keys.fingerprint(keys.publicKey), 'the party\'s namespace (key fingerprint)');
            return { id: party.partyId, key: keys.privateKey, otherKey: sdk.keys.generate().privateKey };
        };
        ctx.exchange = await onboard(`exchange-${Date.now().toString(36)}`);
        ctx.customer = await onboard(`customer-${Date.now().toString(36)}`);
        const parties = await sdk.party.list();
        for (const p of [ctx.exchange.id, ctx.customer.id]) {
            check(parties.includes(p), `party.list() lacks ${short(p)}: ${safeJson(parties, 300)}`);
        }
        return `exchange ${short(ctx.exchange.id)}, customer ${short(ctx.customer.id)}`;
    });

    // -- fund: the exchange taps twice (two holdings, for the merge) ----------------------------------
    await step('fund', async () => {
        const ex = want('exchange');
        const offsets = [];
        for (const amount of ['600', '400']) {
            const [command, disclosed] = await ctx.amulet.tap(ex.id, amount);
            offsets.push((await submit(ex.id, ex.key, command, disclosed)).completionOffset);
        }
        const utxos = await ctx.token.utxos.list({ partyId: ex.id });
        eq(utxos.length, 2, 'the exchange\'s utxos');
        eqNum(utxos.reduce((a, u) => a + Number(u.interfaceViewValue.amount), 0), 1000, 'their sum');
        const h = await holdings(ex.id);
        eq(h.count, 2, 'holdings (admin /overview)');
        eqNum(h.sum, 1000, 'sum (admin /overview)');
        return `two taps at offsets ${offsets.join(', ')}: 600 + 400`;
    });

    // -- withdraw-direct: to a party with a TransferPreapproval ----------------------------------------
    await step('withdraw-direct', async () => {
        const ex = want('exchange');
        const before = await holdings(ctx.receiver);
        const [command, disclosed] = await ctx.token.transfer.create({
            sender: ex.id, recipient: ctx.receiver, amount: '100', instrumentId: 'Amulet',
            registryUrl: new URL(opts.registryUrl), memo: 'cantonlite-write-flow',
        });
        const values = command.ExerciseCommand?.choiceArgument?.extraArgs?.context?.values ?? {};
        check(values['transfer-preapproval'], `the registry chose no preapproval: context ${Object.keys(values).join(',')}`);
        const done = await submit(ex.id, ex.key, command, disclosed);
        const after = await holdings(ctx.receiver);
        eqNum(after.sum - before.sum, 100, `${opts.senderUser}'s holdings moved by`);
        const mine = await ctx.token.utxos.list({ partyId: ex.id });
        check(mine.reduce((a, u) => a + Number(u.interfaceViewValue.amount), 0) <= 900,
            'the exchange holds more than 1000 - 100 after sending 100');
        return `100 to ${short(ctx.receiver)} at offset ${done.completionOffset} (direct, through its preapproval)`;
    });

    // -- send-offer and accept-offer: to a party without one ---------------------------------------------
    await step('send-offer', async () => {
        const ex = want('exchange');
        const cu = want('customer');
        const [command, disclosed] = await ctx.token.transfer.create({
            sender: ex.id, recipient: cu.id, amount: '50', instrumentId: 'Amulet',
            registryUrl: new URL(opts.registryUrl),
        });
        const done = await submit(ex.id, ex.key, command, disclosed);
        const pending = await ctx.token.transfer.pending(cu.id);
        check(pending.length === 1, `${pending.length} pending instructions for the customer`);
        ctx.instruction = pending[0].contractId;
        eqNum(pending[0].interfaceViewValue?.transfer?.amount, 50, 'the instruction\'s amount');
        return `instruction ${short(ctx.instruction)} at offset ${done.completionOffset}`;
    });
    await step('accept-offer', async () => {
        const cu = want('customer');
        const instruction = want('instruction', 'the transfer instruction');
        const [command, disclosed] = await ctx.token.transfer.accept({
            transferInstructionCid: instruction, registryUrl: new URL(opts.registryUrl),
        });
        const done = await submit(cu.id, cu.key, command, disclosed);
        const utxos = await ctx.token.utxos.list({ partyId: cu.id });
        eqNum(utxos.reduce((a, u) => a + Number(u.interfaceViewValue.amount), 0), 50, 'the customer\'s utxos');
        eq((await ctx.token.transfer.pending(cu.id)).length, 0, 'pending instructions after the accept');
        return `accepted at offset ${done.completionOffset}: the customer holds 50`;
    });

    // -- preapproval: the customer asks for one; the validator accepts it; transfers then go direct --------
    await step('preapproval', async () => {
        const ex = want('exchange');
        const cu = want('customer');
        const command = await ctx.amulet.preapproval.command.create({ parties: { receiver: cu.id } });
        check(command?.CreateCommand, `preapproval.command.create returned ${safeJson(command, 200)}`);
        await submit(cu.id, cu.key, command, []);
        const status = await ctx.amulet.preapproval.fetchStatus(cu.id, { timeoutMs: 5000, intervalMs: 100 });
        check(status?.contractId, `no TransferPreapproval for the customer: ${safeJson(status, 200)}`);
        const before = (await holdings(cu.id)).sum;
        const [send, disclosed] = await ctx.token.transfer.create({
            sender: ex.id, recipient: cu.id, amount: '25', instrumentId: 'Amulet',
            registryUrl: new URL(opts.registryUrl),
        });
        const values = send.ExerciseCommand?.choiceArgument?.extraArgs?.context?.values ?? {};
        check(values['transfer-preapproval'], `the registry chose no preapproval: context ${Object.keys(values).join(',')}`);
        await submit(ex.id, ex.key, send, disclosed);
        eqNum((await holdings(cu.id)).sum - before, 25, 'the customer\'s holdings moved by');
        return `TransferPreapproval ${short(status.contractId)} expires ${status.expiresAt.toISOString?.() ?? status.expiresAt}; ` +
            `25 sent to it directly`;
    });

    // -- renew and cancel the customer's preapproval: the provider renews, the receiver cancels ------------
    await step('preapproval-renew-cancel', async () => {
        const cu = want('customer');
        const before = await ctx.amulet.preapproval.fetchStatus(cu.id, { timeoutMs: 5000, intervalMs: 100 });
        check(before?.contractId, 'no TransferPreapproval to renew');
        const expiresAt = new Date(new Date(before.expiresAt).getTime() + 30 * 24 * 3600_000);
        const renewed = await ctx.amulet.preapproval.renew({ parties: { receiver: cu.id }, expiresAt });
        check(renewed?.updateId, `renew answered ${safeJson(renewed, 200)}`);
        const after = await ctx.amulet.preapproval.fetchStatus(cu.id,
            { oldCid: before.contractId, timeoutMs: 5000, intervalMs: 100 });
        check(after?.contractId && after.contractId !== before.contractId, `after renew: ${safeJson(after, 200)}`);
        eq(new Date(after.expiresAt).getTime(), expiresAt.getTime(), 'the new expiresAt');
        const [cancel, disclosed] = await ctx.amulet.preapproval.command.cancel({ parties: { receiver: cu.id } });
        check(cancel?.ExerciseCommand, `command.cancel returned ${safeJson(cancel, 200)}`);
        await submit(cu.id, cu.key, cancel, disclosed);
        const gone = await ctx.amulet.preapproval.fetchStatus(cu.id, { cancelled: true, timeoutMs: 5000, intervalMs: 100 });
        eq(gone, null, 'the preapproval after the cancel');
        return `renewed ${short(before.contractId)} -> ${short(after.contractId)} until ${expiresAt.toISOString()}; ` +
            'cancelled by the customer';
    });

    // -- merge: the exchange's holdings into one -----------------------------------------------------------
    await step('merge', async () => {
        const ex = want('exchange');
        const before = await ctx.token.utxos.list({ partyId: ex.id });
        check(before.length >= 2, `${before.length} utxo(s) to merge`);
        const [commands, disclosed] = await ctx.token.utxos.merge({ partyId: ex.id });
        for (const command of commands) await submit(ex.id, ex.key, command, disclosed);
        const after = await ctx.token.utxos.list({ partyId: ex.id });
        eq(after.length, 1, 'utxos after the merge');
        eqNum(after[0].interfaceViewValue.amount,
            before.reduce((a, u) => a + Number(u.interfaceViewValue.amount), 0), 'the merged amount');
        return `${before.length} holdings into one of ${after[0].interfaceViewValue.amount} (${commands.length} command(s))`;
    });

    // -- bad-signature: refused, nothing commits -------------------------------------------------------------
    await step('bad-signature', async () => {
        const ex = want('exchange');
        const end = (await admin('GET', '/network')).ledger_end;
        const [command, disclosed] = await ctx.amulet.tap(ex.id, '1');
        let refused;
        try {
            await sdk.ledger.prepare({ partyId: ex.id, commands: command, disclosedContracts: disclosed })
                .sign(ex.otherKey).execute({ partyId: ex.id });
        } catch (e) {
            refused = e;
        }
        check(refused, 'a tap signed by another key was executed');
        eq(refused.code, 'FAILED_TO_EXECUTE_TRANSACTION', 'the error code');
        check(/^The participant failed to execute the transaction: Received 0 valid signatures/.test(refused.cause ?? ''),
            `the cause: ${refused.cause}`);
        eq((await admin('GET', '/network')).ledger_end, end, 'the ledger end');
        return `refused: ${String(refused.cause).slice(0, 80)}…`;
    });

    return finish(results, opts);
}

await launch(import.meta.url, HELP, main);
