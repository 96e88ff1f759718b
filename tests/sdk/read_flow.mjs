#!/usr/bin/env node
// The read flow of an exchange, driven through the official Canton wallet SDK
// (@canton-network/wallet-sdk, pinned in package.json) against a running cantonlite.
//
//   cd tests/sdk && npm ci
//   node read_flow.mjs --url http://127.0.0.1:7575            # or CANTONLITE_URL=...
//
// The daemon should serve the LocalNet-shaped seed (config/localnet-network.json): users
// ledger-api-user (acts as app-user's party), app-user, app-provider; HS256 secret "unsafe",
// audience https://canton.network.global. Other networks: pass --user/--secret/--audience (or
// --token), --owner-user and --sender-user (user ids of the seed).
//
// Each step prints one line, `ok <step>: <values>` or `FAIL <step>: <reason> [the failed requests]`;
// the exit code is 1 when a step failed, 2 for a bad command line. Before the steps, cantonlite's
// admin API (/_cantonlite/v1/) takes a snapshot and writes what the steps then read: a deposit of
// 12.5 from the sender to the owner, 30 minted to the owner of which it sends 2.5 back, and a
// TransferPreapproval for the sender; at the end the network is reverted to the snapshot (--keep:
// not). Expected values come from the admin API (ids, offsets, /overview holdings), never from the
// SDK itself.
//
// Steps (SDK call): setup (admin API only), connect (SDK.create), ledger-end (ledger.ledgerEnd),
// utxos (token.utxos.list), holdings-since-offset and withdrawal-since-offset (token.holdings),
// transaction-by-id (token.transactionsById), updates-websocket (events.updates),
// registry-instruments (extend({asset}), asset.list/find), transfer-factory (token.transfer.create),
// preapproval-scan-proxy and preapproval-scan (amulet.preapproval.fetchQuick/fetchStatus, with and
// without validatorUrl), party-list (party.list, for the SDK's user and for a reader of any party),
// featured-app (amulet.featuredApp.rights), transfer-instruction-accept (token.transfer.pending and
// accept: the registry's accept context).
//
// The SDK's own loggers (pino) write JSON lines to stdout; this script runs itself as a child
// process and drops those lines (--verbose: copies them to stderr). On Node 20 the child gets
// --experimental-websocket, so that the SDK finds a global WebSocket as on Node 22.

import {
    admin, check, CheckFailed, closeSockets, describeError, eq, eqNum, finish, launch, probeHandshake,
    safeJson, short, startFlow, usage, withTimeout,
} from './harness.mjs';

const HELP = usage('read_flow', `  --owner-user ID      the seed user whose party is read (the exchange)        [OWNER_USER, app-user]
  --sender-user ID     the seed user who deposits to it                         [SENDER_USER, app-provider]`);

// ---------------------------------------------------------------------------------------------
async function main() {
    const { opts, results, ctx, want, step, auth, logAdapter } = await startFlow('read_flow', HELP);
    const { SDK } = await import('@canton-network/wallet-sdk');
    const { HOLDING_INTERFACE_ID, TRANSFER_FACTORY_INTERFACE_ID } = await import('@canton-network/core-token-standard');

    const bearer = async () => {
        if (opts.token) return opts.token;
        const { AuthTokenProvider } = await import('@canton-network/core-wallet-auth');
        return new AuthTokenProvider(auth, { debug() {}, info() {}, warn() {}, error() {} }).getAccessToken();
    };

    // -- setup: the admin API writes what the steps read ------------------------------------------
    await step('setup', async () => {
        const network = await admin('GET', '/network');
        const overviewBefore = await admin('GET', '/overview');
        const userParty = (id) => {
            const u = network.users.find((x) => x.id === id);
            if (!u) throw new Error(`no user '${id}' in the network (users: ${network.users.map((x) => x.id).join(', ')})`);
            return u.party;
        };
        ctx.dso = network.dso_party;
        ctx.owner = userParty(opts.ownerUser);
        ctx.sender = userParty(opts.senderUser);
        ctx.endBefore = network.ledger_end;
        const snap = await admin('POST', '/snapshots');
        ctx.snapshot = snap.id;
        const tag = `sdk-${Date.now().toString(36)}`;
        const depositAmount = '12.5';
        const w = await admin('POST', '/steps', [
            { step: 'mint', owner: opts.senderUser, amount: '50', as: `${tag}-src` },
            { step: 'transfer', sender: opts.senderUser, inputs: [`${tag}-src`],
              outputs: [{ receiver: opts.ownerUser, amount: depositAmount, as: `${tag}-deposit` }],
              change_as: `${tag}-change` },
        ]);
        const [mint, transfer] = w.results;
        // A withdrawal: the owner is given 30 and sends 2.5 of it back; the change is 30 - 2.5 less
        // fees, read off the admin API's holdings before and after.
        const held = async () => Number((await admin('GET', '/overview')).holdings.find((x) => x.party === ctx.owner)?.amount ?? 0);
        const wm = await admin('POST', '/steps', { step: 'mint', owner: opts.ownerUser, amount: '30', as: `${tag}-wsrc` });
        const heldBefore = await held();
        const ww = await admin('POST', '/steps', { step: 'transfer', sender: opts.ownerUser, inputs: [`${tag}-wsrc`],
            outputs: [{ receiver: opts.senderUser, amount: '2.5', as: `${tag}-wout` }], change_as: `${tag}-wchange` });
        const heldAfter = await held();
        ctx.withdrawal = {
            input: wm.results[0].contracts[`${tag}-wsrc`], inputAmount: '30',
            change: ww.results[0].contracts[`${tag}-wchange`], changeAmount: 30 + (heldAfter - heldBefore),
            out: ww.results[0].contracts[`${tag}-wout`],
            offset: ww.results[0].updates[0].offset, updateId: ww.results[0].updates[0].update_id,
        };
        // A TransferPreapproval for the sender, provided by the owner: the seed's step kind if the
        // daemon has it, else the same contract as a raw transaction.
        const preLabel = `${tag}-preapproval`;
        const preExpires = '2030-01-01T00:00:00Z';
        let pw;
        try {
            pw = await admin('POST', '/steps', { step: 'create_transfer_preapproval', receiver: opts.senderUser,
                                                 provider: opts.ownerUser, expires_at: preExpires, as: preLabel });
        } catch (e) {
            if (!/unknown step|step kind|create_transfer_preapproval/i.test(e.message)) throw e;
            pw = await admin('POST', '/steps', { step: 'transaction', submitters: [opts.senderUser, opts.ownerUser], nodes: [{ create: {
                template: 'splice-amulet:Splice.AmuletRules:TransferPreapproval',
                argument: { record: { fields: [
                    { label: 'dso', value: { party: 'dso' } },
                    { label: 'receiver', value: { party: opts.senderUser } },
                    { label: 'provider', value: { party: opts.ownerUser } },
                    { label: 'validFrom', value: { timestamp: network.ledger_time } },
                    { label: 'lastRenewedAt', value: { timestamp: network.ledger_time } },
                    { label: 'expiresAt', value: { timestamp: preExpires } },
                ] } },
                signatories: [opts.senderUser, opts.ownerUser, 'dso'], as: preLabel } }] });
            ctx.preapprovalRaw = true;
        }
        const pre = pw.results[0];
        ctx.mintOffset = mint.updates[0].offset;
        ctx.deposit = {
            amount: depositAmount,
            cid: transfer.contracts[`${tag}-deposit`],
            offset: transfer.updates[0].offset,
            updateId: transfer.updates[0].update_id,
            recordTime: transfer.updates[0].record_time,
        };
        ctx.preapproval = { cid: pre.contracts[`${tag}-preapproval`], receiver: ctx.sender, provider: ctx.owner,
                            expiresAt: preExpires, offset: pre.updates[0].offset };
        // A FeaturedAppRight of the owner; an offer (a transfer instruction) from the sender to the
        // owner, who has no preapproval; a user reading as any party with ParticipantAdmin, whose
        // party.list() reads GET /v2/parties.
        const fw = await admin('POST', '/steps', { step: 'feature_app', provider: opts.ownerUser, as: `${tag}-featured` });
        ctx.featured = { cid: fw.results[0].contracts[`${tag}-featured`], provider: ctx.owner };
        const iw = await admin('POST', '/steps', [
            { step: 'mint', owner: opts.senderUser, amount: '40', as: `${tag}-isrc` },
            { step: 'create_transfer_instruction', sender: opts.senderUser, receiver: opts.ownerUser, amount: '7.25',
              inputs: [`${tag}-isrc`], execute_before: '2030-01-01T00:00:00Z', locked_as: `${tag}-ilocked`, as: `${tag}-instruction` },
        ]);
        ctx.instruction = { cid: iw.results[1].contracts[`${tag}-instruction`], locked: iw.results[1].contracts[`${tag}-ilocked`],
                            amount: '7.25' };
        ctx.readerUser = `${tag}-reader`;
        const uw = await admin('POST', '/steps', { step: 'add_user', id: ctx.readerUser,
            rights: { can_read_as_any_party: true, participant_admin: true } });
        ctx.endAfter = uw.ledger_end;
        const overview = await admin('GET', '/overview');
        const h = overview.holdings.find((x) => x.party === ctx.owner);
        ctx.ownerHoldings = h ? { count: h.amulets, sum: h.amount } : { count: 0, sum: '0' };
        const hb = overviewBefore.holdings.find((x) => x.party === ctx.owner);
        return `snapshot ${ctx.snapshot}, ledger end ${ctx.endBefore} -> ${ctx.endAfter}; deposit ${depositAmount} to ` +
            `${short(ctx.owner)} at offset ${ctx.deposit.offset} (update ${short(ctx.deposit.updateId)}, contract ` +
            `${short(ctx.deposit.cid)}); TransferPreapproval ${short(ctx.preapproval.cid)} for ${short(ctx.sender)}` +
            `${ctx.preapprovalRaw ? ' (raw transaction: no create_transfer_preapproval step)' : ''}; ` +
            `withdrawal of 2.5 at offset ${ctx.withdrawal.offset} (change ${ctx.withdrawal.changeAmount}); ` +
            `FeaturedAppRight ${short(ctx.featured.cid)}; transfer instruction ${short(ctx.instruction.cid)}; ` +
            `owner holds ${ctx.ownerHoldings.count} amulets, ${ctx.ownerHoldings.sum} (was ${hb?.amount})`;
    });

    // -- connect -------------------------------------------------------------------------------------
    let sdk;
    await step('connect', async () => {
        sdk = await SDK.create({ auth, ledgerClientUrl: opts.ledgerUrl, logAdapter });
        // ctx is TypeScript-private, plain JS can read it: what SDK.create learnt.
        const { userId, defaultSynchronizerId } = sdk.ctx;
        eq(userId, opts.user, 'userId (from GET /v2/authenticated-user)');
        check(/^[^:]+::1220[0-9a-f]{64}$/.test(defaultSynchronizerId ?? ''),
            `defaultSynchronizerId '${defaultSynchronizerId}' is not a synchronizer id`);
        ctx.synchronizerId = defaultSynchronizerId;
        return `userId=${userId} defaultSynchronizerId=${short(defaultSynchronizerId)}`;
    });
    if (!sdk) return finish(results, opts);

    const lazy = (f) => { let p; return () => (p ??= f()); };
    const tokenNs = lazy(async () => (await sdk.extend({
        token: { auth, validatorUrl: opts.validatorUrl, registries: [opts.registryUrl] } })).token);
    const amuletProxyNs = lazy(async () => (await sdk.extend({
        amulet: { auth, validatorUrl: opts.validatorUrl, scanApiUrl: opts.scanUrl, registryUrl: opts.registryUrl } })).amulet);
    const amuletScanNs = lazy(async () => (await sdk.extend({
        amulet: { auth, scanApiUrl: opts.scanUrl, registryUrl: opts.registryUrl } })).amulet);

    // -- ledger end ------------------------------------------------------------------------------------
    await step('ledger-end', async () => {
        const end = await sdk.ledger.ledgerEnd();
        eq(end, want('endAfter', 'the ledger end after the setup writes'), 'sdk.ledger.ledgerEnd()');
        return `offset ${end}`;
    });

    // -- UTXOs (holdings) of the owner -------------------------------------------------------------------
    await step('utxos', async () => {
        const owner = want('owner');
        const dep = want('deposit');
        const token = await tokenNs();
        const utxos = await token.utxos.list({ partyId: owner });
        check(Array.isArray(utxos), `utxos.list returned ${typeof utxos}`);
        for (const u of utxos) {
            eq(u.interfaceViewValue?.owner, owner, `owner of utxo ${short(u.contractId)}`);
            eq(u.interfaceViewValue?.instrumentId?.admin, ctx.dso, `instrumentId.admin of ${short(u.contractId)}`);
            eq(u.interfaceViewValue?.instrumentId?.id, 'Amulet', `instrumentId.id of ${short(u.contractId)}`);
            eq(u.fetchedAtOffset, ctx.endAfter, 'fetchedAtOffset');
        }
        const d = utxos.find((u) => u.contractId === dep.cid);
        check(d, `deposit contract ${short(dep.cid)} not among the ${utxos.length} utxos`);
        eqNum(d.interfaceViewValue.amount, dep.amount, 'deposit utxo amount');
        check(d.activeContract?.synchronizerId === ctx.synchronizerId,
            `deposit utxo synchronizerId ${d.activeContract?.synchronizerId} != ${ctx.synchronizerId}`);
        const sum = utxos.reduce((a, u) => a + Number(u.interfaceViewValue.amount), 0);
        eq(utxos.length, ctx.ownerHoldings.count, 'unlocked utxo count (admin /overview holdings)');
        eqNum(sum, ctx.ownerHoldings.sum, 'unlocked utxo sum (admin /overview holdings)');
        const all = await token.utxos.list({ partyId: owner, includeLocked: true });
        check(all.length >= utxos.length, `includeLocked: ${all.length} < ${utxos.length}`);
        return `${utxos.length} unlocked utxos (${all.length} with locked), sum ${sum}; deposit ${short(dep.cid)} = ${d.interfaceViewValue.amount}`;
    });

    // -- deposits since an offset (token standard transaction history) -------------------------------------
    await step('holdings-since-offset', async () => {
        const owner = want('owner');
        const dep = want('deposit');
        const token = await tokenNs();
        const page = await token.holdings({ partyId: owner, afterOffset: ctx.endBefore });
        check(page && Array.isArray(page.transactions), `token.holdings returned ${safeJson(page, 200)}`);
        for (const tx of page.transactions) {
            check(tx.offset > ctx.endBefore && tx.offset <= ctx.endAfter,
                `transaction at offset ${tx.offset} outside (${ctx.endBefore}, ${ctx.endAfter}]`);
        }
        check(!page.transactions.some((tx) => tx.offset === ctx.mintOffset),
            `the mint to ${opts.senderUser} (offset ${ctx.mintOffset}) is listed for ${opts.ownerUser}`);
        const tx = page.transactions.find((t) => t.updateId === dep.updateId);
        check(tx, `deposit update ${short(dep.updateId)} not among ${page.transactions.length} transactions ` +
            `(offsets ${page.transactions.map((t) => t.offset).join(',') || 'none'})`);
        eq(tx.offset, dep.offset, 'deposit offset');
        eq(tx.synchronizerId, ctx.synchronizerId, 'deposit synchronizerId');
        check(page.nextOffset >= dep.offset, `nextOffset ${page.nextOffset} < deposit offset ${dep.offset}`);
        const got = depositIn(tx, owner, dep);
        return `${page.transactions.length} transaction(s) after offset ${ctx.endBefore}, nextOffset ${page.nextOffset}; ` +
            `deposit at ${tx.offset}: ${got}`;
    });

    // -- a withdrawal in the transaction history (the owner's holding archived, its change created) ------
    await step('withdrawal-since-offset', async () => {
        const owner = want('owner');
        const wd = want('withdrawal');
        const token = await tokenNs();
        const page = await token.holdings({ partyId: owner, afterOffset: wd.offset - 1 });
        check(page && Array.isArray(page.transactions), `token.holdings returned ${safeJson(page, 200)}`);
        const tx = page.transactions.find((t) => t.updateId === wd.updateId);
        check(tx, `withdrawal update ${short(wd.updateId)} not among ${page.transactions.length} transactions`);
        eq(tx.offset, wd.offset, 'withdrawal offset');
        const events = tx.events ?? [];
        // Consumed input: a TransferOut/MergeSplit event lists it in unlockedHoldingsChange.archives; without
        // tx-kind meta the parser emits a bare "Archive" event (label.contractId) from events-by-contract-id.
        const archived = events.find((e) => (e.unlockedHoldingsChange?.archives ?? []).some((h) => h.contractId === wd.input))
            ?? events.find((e) => e.label?.type === 'Archive' && e.label?.contractId === wd.input);
        check(archived, `no event consumes ${short(wd.input)}; events ${safeJson(events, 400)}`);
        const change = events.flatMap((e) => (e.unlockedHoldingsChange?.creates ?? [])
            .filter((h) => h.contractId === wd.change || (e.label?.type === 'Create' && e.label?.contractId === wd.change)));
        check(change.length === 1, `the change ${short(wd.change)} is created ${change.length} times; events ${safeJson(events, 400)}`);
        eq(change[0].owner, owner, 'owner of the change');
        eqNum(change[0].amount, wd.changeAmount, 'change amount (admin /overview difference)');
        const outs = events.flatMap((e) => e.unlockedHoldingsChange?.creates ?? []).filter((h) => h.owner !== owner);
        check(outs.length === 0, `holdings of other parties listed for ${opts.ownerUser}: ${safeJson(outs, 200)}`);
        const types = events.map((e) => e.label?.type).join(',');
        const net = events.reduce((a, e) => a + (e.unlockedHoldingsChangeSummaries ?? [])
            .reduce((b, x) => b + Number(x.amountChange ?? 0), 0), 0);
        // The owner's balance moved by change - input. The parser gets this right only when it can
        // read the transfer as one: Splice's AmuletRules_Transfer result carries
        // meta.values["splice.lfdecentralizedtrust.org/tx-kind"] = "transfer" (TokenApiUtils.holdingTxMeta);
        // without it the consumed input becomes a bare "Archive" event with a positive amount.
        const expectedNet = Number(wd.changeAmount) - Number(wd.inputAmount);
        check(Math.abs(net - expectedNet) < 1e-9, `sum of unlockedHoldingsChangeSummaries[].amountChange is ${net}, the balance moved by ` +
            `${expectedNet}; events [${types}]` + (archived.label?.type === 'Archive'
                ? ' (the parser found no tx-kind meta on the AmuletRules_Transfer exercise: exerciseResult.meta)' : ''));
        return `update ${short(tx.updateId)} at ${tx.offset}: events [${types}], input ${short(wd.input)} consumed ` +
            `(${archived.label?.type}), change +${change[0].amount}; sum of amountChange ${net}`;
    });

    // -- a transaction by id -----------------------------------------------------------------------------
    await step('transaction-by-id', async () => {
        const owner = want('owner');
        const dep = want('deposit');
        const token = await tokenNs();
        const tx = await token.transactionsById({ updateId: dep.updateId, partyId: owner });
        check(tx, `transactionsById returned ${tx}`);
        eq(tx.updateId, dep.updateId, 'updateId');
        eq(tx.offset, dep.offset, 'offset');
        eq(Date.parse(tx.recordTime), Date.parse(dep.recordTime), 'recordTime (admin API record_time)');
        eq(tx.synchronizerId, ctx.synchronizerId, 'synchronizerId');
        return `update ${short(tx.updateId)} offset ${tx.offset} recordTime ${tx.recordTime}: ${depositIn(tx, owner, dep)}`;
    });

    // -- the updates stream over WebSocket ------------------------------------------------------------------
    await step('updates-websocket', async () => {
        const owner = want('owner');
        const dep = want('deposit');
        const { events } = await sdk.extend({ events: { auth, websocketURL: opts.wsUrl } });
        const it = events.updates({ partyId: owner, interfaceIds: [HOLDING_INTERFACE_ID], beginOffset: ctx.endBefore });
        const seen = [];
        let found, checkpoint;
        const deadline = Date.now() + Math.min(opts.timeoutMs - 1000, 10000);
        try {
            // The deposit, then the OffsetCheckpoint a tailing stream gets once caught up (the
            // exchange-integration guide's point to resume from).
            while (!found || !checkpoint) {
                const left = deadline - Date.now();
                if (left <= 0) break;
                const r = await withTimeout(it.next(), left, null).catch(() => ({ timedOut: true }));
                if (r.timedOut || r.done) break;
                const msg = r.value;
                seen.push(msg);
                const t = msg?.update?.Transaction?.value;
                if (t?.updateId === dep.updateId) found = t;
                const cp = msg?.update?.OffsetCheckpoint?.value;
                if (cp && cp.offset >= ctx.endAfter) checkpoint = cp;
            }
        } finally {
            closeSockets('updates-websocket');   // ends the generator even while it awaits a frame
            await withTimeout(it.return?.(), 2000, null).catch(() => {});
        }
        const kinds = seen.map((m) => Object.keys(m?.update ?? m ?? {})[0] ?? '?');
        if (!found && seen.length === 0) {
            // The WebSocket API hides a refused handshake's status: ask again with plain HTTP.
            const url = `${String(new URL(opts.wsUrl))}/v2/updates`;
            throw new CheckFailed(`no message; handshake of ${url}: ${await probeHandshake(url, await bearer())}`);
        }
        check(found, `no Transaction with update ${short(dep.updateId)} within 10 s; got ${seen.length} message(s)` +
            (seen.length ? ` [${kinds.join(',')}] first ${safeJson(seen[0], 300)}` : ''));
        eq(found.offset, dep.offset, 'offset of the streamed deposit');
        check(checkpoint, `no OffsetCheckpoint at the ledger end ${ctx.endAfter} after the deposit; ` +
            `got [${kinds.join(',')}]`);
        check((checkpoint.synchronizerTimes ?? []).some((x) => x.synchronizerId && x.recordTime),
            `the checkpoint names no synchronizer time: ${safeJson(checkpoint, 300)}`);
        const txs = seen.map((m) => m?.update?.Transaction?.value).filter(Boolean);
        for (const t of txs) check(t.offset > ctx.endBefore, `streamed offset ${t.offset} <= beginExclusive ${ctx.endBefore}`);
        check(!txs.some((t) => t.offset === ctx.mintOffset), `the mint to ${opts.senderUser} was streamed to ${opts.ownerUser}`);
        const created = (found.events ?? []).map((e) => e.CreatedEvent).filter(Boolean);
        const c = created.find((e) => e.contractId === dep.cid);
        check(c, `deposit ${short(dep.cid)} not among the streamed transaction's ${created.length} CreatedEvent(s); ` +
            `event kinds ${(found.events ?? []).map((e) => Object.keys(e)[0]).join(',')}`);
        const view = (c.interfaceViews ?? [])[0];
        check(view?.viewValue, `streamed CreatedEvent has no interface view: ${safeJson(c.interfaceViews, 200)}`);
        eqNum(view.viewValue.amount, dep.amount, 'streamed Holding view amount');
        eq(view.viewValue.owner, owner, 'streamed Holding view owner');
        return `${seen.length} message(s) [${kinds.join(',')}]; deposit at offset ${found.offset}, ` +
            `checkpoint at ${checkpoint.offset}, ` +
            `Holding view amount ${view.viewValue.amount}`;
    });

    // -- the registry's instruments -----------------------------------------------------------------------
    await step('registry-instruments', async () => {
        const { asset } = await sdk.extend({ asset: { auth, registries: [opts.registryUrl] } });
        const list = asset.list;
        check(Array.isArray(list) && list.length > 0, `asset.list is ${safeJson(list, 200)}`);
        const amulet = await asset.find('Amulet');
        eq(amulet.admin, ctx.dso, 'Amulet admin (registry info adminId)');
        check(typeof amulet.displayName === 'string' && amulet.displayName.length > 0, `displayName ${amulet.displayName}`);
        check(typeof amulet.symbol === 'string' && amulet.symbol.length > 0, `symbol ${amulet.symbol}`);
        eq(amulet.registryUrl.href, new URL(opts.registryUrl).href, 'registryUrl');
        return `${list.length} instrument(s): ${list.map((a) => `${a.id} "${a.displayName}" ${a.symbol} admin ${short(a.admin)}`).join('; ')}`;
    });

    // -- the transfer factory (choice context for a transfer) ------------------------------------------------
    await step('transfer-factory', async () => {
        const owner = want('owner');
        const token = await tokenNs();
        const [cmd, disclosed] = await token.transfer.create({
            sender: owner, recipient: ctx.sender, amount: '1.5', instrumentId: 'Amulet',
            registryUrl: new URL(opts.registryUrl), memo: 'cantonlite-read-flow',
        });
        const ex = cmd?.ExerciseCommand;
        check(ex, `transfer.create returned ${safeJson(cmd, 200)}`);
        eq(ex.templateId, TRANSFER_FACTORY_INTERFACE_ID, 'templateId');
        eq(ex.choice, 'TransferFactory_Transfer', 'choice');
        check(/^00[0-9a-f]{64,}$/.test(ex.contractId ?? ''), `factoryId '${ex.contractId}' is not a contract id`);
        const arg = ex.choiceArgument;
        eq(arg.expectedAdmin, ctx.dso, 'choiceArgument.expectedAdmin');
        eq(arg.transfer.instrumentId.admin, ctx.dso, 'transfer.instrumentId.admin');
        check(arg.transfer.inputHoldingCids.length > 0, 'no input holdings chosen');
        const values = arg.extraArgs?.context?.values ?? {};
        for (const k of ['amulet-rules', 'open-round']) {
            check(values[k], `choice context has no '${k}' (keys: ${Object.keys(values).join(',') || 'none'})`);
        }
        check(Array.isArray(disclosed) && disclosed.length > 0, `disclosedContracts ${safeJson(disclosed, 200)}`);
        for (const d of disclosed) {
            for (const f of ['templateId', 'contractId', 'createdEventBlob', 'synchronizerId']) {
                check(typeof d[f] === 'string' && d[f].length > 0, `a disclosed contract lacks ${f}: ${safeJson(d, 200)}`);
            }
            eq(d.synchronizerId, ctx.synchronizerId, `synchronizerId of disclosed ${short(d.contractId)}`);
        }
        const factory = disclosed.find((d) => d.contractId === ex.contractId);
        check(factory, `factory ${short(ex.contractId)} is not among the disclosed contracts`);
        check(/:Splice\.ExternalPartyAmuletRules:ExternalPartyAmuletRules$/.test(factory.templateId),
            `factory template ${factory.templateId}`);
        return `factory ${short(ex.contractId)} (${factory.templateId.split(':').slice(1).join(':')}), ` +
            `${arg.transfer.inputHoldingCids.length} input holding(s), context keys ${Object.keys(values).join(',')}, ` +
            `${disclosed.length} disclosed contract(s)`;
    });

    // -- transfer preapproval lookups -------------------------------------------------------------------------
    // Two lookups per step: a party without a preapproval (the SDK must return null, which it does
    // only for a 404 whose error starts "No TransferPreapproval found for party"), and the receiver
    // of the TransferPreapproval the setup created. Both are checked; the line reports both.
    const preapprovalStep = (name, ns) => step(name, async () => {
        const pre = want('preapproval');
        const owner = want('owner');
        const amulet = await ns();
        const problems = [];
        const none = await amulet.preapproval.fetchQuick(owner);
        if (none !== null) {
            problems.push(`fetchQuick(${short(owner)}), a party without one: expected null, got ${safeJson(none, 200)}` +
                (none === undefined ? ' (undefined: the SDK swallowed an error other than "No TransferPreapproval found for party…")' : ''));
        }
        let got, status;
        try {
            got = await amulet.preapproval.fetchQuick(pre.receiver);
            check(got && got.contract, `fetchQuick(${short(pre.receiver)}): expected the preapproval, got ${safeJson(got, 200)}`);
            eq(got.contract.contract_id, pre.cid, 'contract.contract_id');
            check(/:Splice\.AmuletRules:TransferPreapproval$/.test(got.contract.template_id ?? ''), `template_id ${got.contract.template_id}`);
            eq(got.contract.payload?.receiver, pre.receiver, 'payload.receiver');
            eq(got.contract.payload?.provider, pre.provider, 'payload.provider');
            eq(got.contract.payload?.dso, ctx.dso, 'payload.dso');
            status = await amulet.preapproval.fetchStatus(pre.receiver, { timeoutMs: 2000, intervalMs: 500 });
            eq(status?.contractId, pre.cid, 'fetchStatus contractId');
            eq(status?.expiresAt?.toISOString(), new Date(pre.expiresAt).toISOString(), 'fetchStatus expiresAt');
        } catch (e) {
            problems.push(describeError(e));
        }
        check(problems.length === 0, problems.join('; '));
        return `none for ${short(owner)}; ${short(pre.receiver)}: ${short(got.contract.contract_id)} ` +
            `expires ${status.expiresAt.toISOString()} domain_id ${short(got.domain_id)}`;
    });
    await preapprovalStep('preapproval-scan-proxy', amuletProxyNs);
    await preapprovalStep('preapproval-scan', amuletScanNs);

    // -- the parties a user may act for (sdk.party.list): its rights, or every party ----------------------
    await step('party-list', async () => {
        const overview = await admin('GET', '/overview');
        const mine = overview.rights.find((u) => u.user === opts.user);
        check(mine, `user ${opts.user} not in the admin API's /overview rights`);
        const listed = await sdk.party.list();
        const expected = [...new Set([...mine.can_act_as, ...mine.can_read_as])];
        eq(JSON.stringify([...listed].sort()), JSON.stringify([...expected].sort()),
            `party.list() of ${opts.user} (GET /v2/users/${opts.user}/rights)`);
        // A reader of every party with ParticipantAdmin: the SDK lists GET /v2/parties' local ones.
        const reader = await SDK.create({ ledgerClientUrl: opts.ledgerUrl, logAdapter, auth: opts.token ? auth : {
            ...auth, credentials: { ...auth.credentials, clientId: want('readerUser') } } });
        const all = await reader.party.list();
        const known = new Set([ctx.dso, ...overview.rights.map((u) => u.party)]);
        for (const p of known) check(all.includes(p), `party.list() of ${ctx.readerUser} lacks ${short(p)} (${all.length} listed)`);
        check(new Set(all).size === all.length, `party.list() of ${ctx.readerUser} repeats a party`);
        return `${opts.user}: ${listed.length} part${listed.length === 1 ? 'y' : 'ies'} from its rights; ` +
            `${ctx.readerUser} (read as any party, admin): ${all.length} from GET /v2/parties`;
    });

    // -- a featured app right, through the validator's scan proxy ---------------------------------------
    await step('featured-app', async () => {
        const f = want('featured');
        const amulet = await amuletProxyNs();
        const right = await amulet.featuredApp.rights({ partyId: f.provider, maxRetries: 1, delayMs: 0 });
        check(right, `featuredApp.rights(${short(f.provider)}) found none`);
        eq(right.contract_id, f.cid, 'featured_app_right.contract_id');
        check(/:Splice\.Amulet:FeaturedAppRight$/.test(right.template_id ?? ''), `template_id ${right.template_id}`);
        eq(right.payload?.provider, f.provider, 'payload.provider');
        eq(right.payload?.dso, ctx.dso, 'payload.dso');
        const none = await amulet.featuredApp.rights({ partyId: ctx.sender, maxRetries: 1, delayMs: 0 });
        eq(none, undefined, `featuredApp.rights(${short(ctx.sender)}), a party without one`);
        return `${short(f.provider)}: ${short(right.contract_id)}; none for ${short(ctx.sender)}`;
    });

    // -- a pending transfer instruction and its accept context -------------------------------------------
    await step('transfer-instruction-accept', async () => {
        const ti = want('instruction');
        const owner = want('owner');
        const token = await tokenNs();
        const pending = await token.transfer.pending(owner);
        const mine = (pending ?? []).find((c) => c.contractId === ti.cid);
        check(mine, `transfer.pending(${short(owner)}) lacks ${short(ti.cid)} (${(pending ?? []).length} listed)`);
        eqNum(mine.interfaceViewValue?.transfer?.amount, ti.amount, 'the pending transfer\'s amount');
        eq(mine.interfaceViewValue?.transfer?.sender, ctx.sender, 'the pending transfer\'s sender');
        const [cmd, disclosed] = await token.transfer.accept({ transferInstructionCid: ti.cid, registryUrl: new URL(opts.registryUrl) });
        const ex = cmd?.ExerciseCommand;
        check(ex, `transfer.accept returned ${safeJson(cmd, 200)}`);
        eq(ex.choice, 'TransferInstruction_Accept', 'choice');
        eq(ex.contractId, ti.cid, 'contractId');
        const values = ex.choiceArgument?.extraArgs?.context?.values ?? {};
        eq(values['expire-lock']?.value, true, 'context expire-lock');
        for (const k of ['amulet-rules', 'open-round']) {
            eq(values[k]?.tag, 'AV_ContractId', `context ${k}`);
        }
        check(Array.isArray(disclosed) && disclosed.some((d) => d.contractId === ti.locked),
            `the locked amulet ${short(ti.locked)} is not disclosed: ${safeJson(disclosed, 300)}`);
        for (const d of disclosed) eq(d.synchronizerId, ctx.synchronizerId, `synchronizerId of disclosed ${short(d.contractId)}`);
        return `${pending.length} pending for ${short(owner)}; accept ${short(ti.cid)}: context ${Object.keys(values).join(',')}, ` +
            `${disclosed.length} disclosed contract(s)`;
    });

    return finish(results, opts);

    // -- helpers needing the imports ------------------------------------------------------------------------
    // The deposit as the SDK's parser renders it. A receiver is no informee of the sender's
    // AmuletRules_Transfer, so it sees the new Amulet as a root create: label type "Create",
    // contract id in label.contractId; a token-standard transfer it witnesses gives "TransferIn".
    function depositIn(tx, owner, dep) {
        const ev = (tx.events ?? []).find((e) => e.label?.contractId === dep.cid
            || (e.unlockedHoldingsChange?.creates ?? []).some((h) => h.contractId === dep.cid));
        check(ev, `no event creates the deposit ${short(dep.cid)}; events ${safeJson(tx.events, 400)}`);
        const creates = ev.unlockedHoldingsChange?.creates ?? [];
        const h = creates.find((x) => x.contractId === dep.cid) ?? (creates.length === 1 ? creates[0] : undefined);
        check(h, `the deposit's event has ${creates.length} unlocked creates: ${safeJson(ev, 300)}`);
        eq(h.owner, owner, 'owner of the created holding');
        eqNum(h.amount, dep.amount, 'amount of the created holding');
        eq(h.instrumentId?.admin, ctx.dso, 'instrumentId.admin of the created holding');
        const summary = ev.unlockedHoldingsChangeSummaries?.[0];
        check(summary, `no unlockedHoldingsChangeSummaries: ${safeJson(ev, 300)}`);
        eqNum(summary.amountChange, dep.amount, 'unlockedHoldingsChangeSummaries[0].amountChange');
        return `event ${ev.label?.type} (parent ${ev.label?.parentChoice ?? '-'}${ev.label?.sender ? `, sender ${short(ev.label.sender)}` : ''}), ` +
            `holding +${h.amount} amountChange ${summary.amountChange}`;
    }

}

await launch(import.meta.url, HELP, main);
