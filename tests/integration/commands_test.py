#!/usr/bin/env python3
"""commands.check: a deposit and a withdrawal through the JSON Ledger API's command service only,
as an exchange's code makes them, then read back through Scan, the validator and the ledger.

On the default network, with a journal:
1. carol taps the faucet (AmuletRules_DevNet_Tap, the AmuletRules disclosed as Scan hands them out);
2. carol deposits 40 to the exchange (alice): the registry's transfer factory answers an offer,
   carol's TransferFactory_Transfer locks the amount, alice accepts it with the registry's accept
   context (TransferInstruction_Accept);
3. the exchange withdraws 25 to bob, whose TransferPreapproval makes it direct;
4. Scan's update by id, the validator's holdings summary and the ledger's update by id and active
   contracts show both; the completions list has the exchange's commands;
5. after a restart on the journal the holdings are the same and the withdrawal's command id is
   still a duplicate.

Usage: commands_test.py BIN SOURCE_DIR
"""
import datetime
import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from decimal import Decimal

from daemon_lib import Check

BIN, SRC = sys.argv[1], sys.argv[2]
SEED = os.path.join(SRC, "config/default-network.json")
CHECK = Check("commands.check")
fail = CHECK.fail

ALICE = "alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90"
BOB = "bob::122081b637d8fcd2c6da6359e6963113a1170de795e4b725b84d1e0b4cfd9ec58ce9"
CAROL = "carol::12204c26d9074c27d89ede59270c0ac14b71e071b15239519f75474b2f3ba63481f5"
FACTORY = ("#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:"
           "TransferFactory")
INSTRUCTION = ("#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:"
               "TransferInstruction")


class Daemon:
    def __init__(self, journal):
        self.process, self.port, self.log = CHECK.start_daemon(BIN, "--seed", SEED, "--journal",
                                                               journal)

    def call(self, method, path, body=None, user=None, expect=200):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                         data=data)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if user:
            request.add_header("Authorization", "Bearer " + token(user))
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode()
        if status != expect:
            fail(f"{method} {path} answered {status}, not {expect}: {text[:600]}", self.log)
        return json.loads(text) if text else None

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        CHECK.processes.remove(self.process)


TOKENS = {}


def token(user):
    if user not in TOKENS:
        TOKENS[user] = subprocess.run([BIN, "token", "--user", user, "--seed", SEED], check=True,
                                      capture_output=True, text=True).stdout.strip()
    return TOKENS[user]


def disclosed(contract):
    """A Scan contract ({contract_id, created_event_blob, ...}) as a DisclosedContract."""
    return {"contractId": contract["contract_id"], "createdEventBlob": contract["created_event_blob"],
            "templateId": contract["template_id"]}


def submit(d, user, party, command_id, command, disclosed_contracts, answer="transaction"):
    body = {"commands": [{"ExerciseCommand": command}], "commandId": command_id, "actAs": [party],
            "disclosedContracts": disclosed_contracts}
    if answer == "transaction":
        return d.call("POST", "/v2/commands/submit-and-wait-for-transaction", {"commands": body},
                      user)["transaction"]
    return d.call("POST", "/v2/commands/submit-and-wait", body, user)


def created(tx, entity):
    return [e["CreatedEvent"] for e in tx["events"]
            if "CreatedEvent" in e and e["CreatedEvent"]["templateId"].endswith(":" + entity)]


def a_day_after(instant):
    t = datetime.datetime.fromisoformat(instant.replace("Z", "+00:00"))
    return (t + datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")


def factory_transfer(d, dso, sender, receiver, amount, inputs, now):
    """The registry's transfer factory for this transfer: the choice argument and the disclosed
    contracts the exchange's code submits."""
    arguments = {"expectedAdmin": dso,
                 "transfer": {"sender": sender, "receiver": receiver, "amount": amount,
                              "instrumentId": {"admin": dso, "id": "Amulet"},
                              "requestedAt": now, "executeBefore": a_day_after(now),
                              "inputHoldingCids": inputs,
                              "meta": {"values": {"splice.lfdecentralizedtrust.org/reason":
                                                  "commands.check"}}},
                 "extraArgs": {"context": {"values": {}}, "meta": {"values": {}}}}
    factory = d.call("POST", "/registry/transfer-instruction/v1/transfer-factory",
                     {"choiceArguments": arguments, "excludeDebugFields": True})
    arguments["extraArgs"]["context"] = factory["choiceContext"]["choiceContextData"]
    command = {"templateId": FACTORY, "contractId": factory["factoryId"],
               "choice": "TransferFactory_Transfer", "choiceArgument": arguments}
    return factory["transferKind"], command, factory["choiceContext"]["disclosedContracts"]


def amulets(d, user, party):
    end = d.call("GET", "/v2/state/ledger-end", user=user)["offset"]
    acs = d.call("POST", "/v2/state/active-contracts",
                 {"activeAtOffset": end, "eventFormat": {"filtersByParty": {party: {"cumulative": [
                     {"identifierFilter": {"TemplateFilter": {"value": {
                         "templateId": "#splice-amulet:Splice.Amulet:Amulet",
                         "includeCreatedEventBlob": False}}}}]}}, "verbose": False}}, user)
    return {e["contractEntry"]["JsActiveContract"]["createdEvent"]["contractId"]:
            Decimal(e["contractEntry"]["JsActiveContract"]["createdEvent"]["createArgument"][
                "amount"]["initialAmount"]) for e in acs}


def main():
    work = tempfile.mkdtemp()
    journal = os.path.join(work, "journal")
    d = Daemon(journal)
    dso = d.call("GET", "/api/scan/v0/dso-party-id")["dso_party_id"]
    now = d.call("GET", "/_cantonlite/v1/time")["now"]
    rules = d.call("POST", "/api/scan/v0/amulet-rules", {})["amulet_rules_update"]["contract"]
    rounds = d.call("POST", "/api/scan/v0/open-and-issuing-mining-rounds",
                    {"cached_open_mining_round_contract_ids": [],
                     "cached_issuing_round_contract_ids": []})["open_mining_rounds"]
    open_round = sorted(rounds.values(), key=lambda r: r["contract"]["payload"]["opensAt"])[-1]

    # 1. carol taps 100.
    tx = submit(d, "carol", CAROL, "carol-tap", {
        "templateId": "#splice-amulet:Splice.AmuletRules:AmuletRules",
        "contractId": rules["contract_id"], "choice": "AmuletRules_DevNet_Tap",
        "choiceArgument": {"receiver": CAROL, "amount": "100",
                           "openRound": open_round["contract"]["contract_id"]}},
        [disclosed(rules), disclosed(open_round["contract"])])
    carol_coin = created(tx, "Amulet")[0]["contractId"]

    # 2. carol deposits 40 to the exchange: an offer, then the exchange accepts it.
    kind, command, contracts = factory_transfer(d, dso, CAROL, ALICE, "40", [carol_coin], now)
    if kind != "offer":
        fail(f"the registry answered a {kind} transfer to the exchange, not an offer", d.log)
    tx = submit(d, "carol", CAROL, "carol-deposit", command, contracts)
    instruction = created(tx, "AmuletTransferInstruction")[0]["contractId"]
    context = d.call("POST", f"/registry/transfer-instruction/v1/{instruction}/choice-contexts/accept",
                     {"excludeDebugFields": True})
    before = amulets(d, "alice", ALICE)
    tx = submit(d, "alice", ALICE, "exchange-accept", {
        "templateId": INSTRUCTION, "contractId": instruction, "choice": "TransferInstruction_Accept",
        "choiceArgument": {"extraArgs": {"context": context["choiceContextData"],
                                         "meta": {"values": {}}}}},
        context["disclosedContracts"])
    deposit = created(tx, "Amulet")
    deposit = [c for c in deposit if c["createArgument"]["owner"] == ALICE]
    if len(deposit) != 1 or Decimal(deposit[0]["createArgument"]["amount"]["initialAmount"]) != 40:
        fail(f"the accepted deposit created {deposit}", d.log)
    after = amulets(d, "alice", ALICE)
    if sum(after.values()) - sum(before.values()) != 40:
        fail(f"the exchange's amulets went from {before} to {after}", d.log)

    # 3. the exchange withdraws 25 to bob, directly through bob's preapproval.
    bob_before = sum(amulets(d, "bob", BOB).values())
    kind, command, contracts = factory_transfer(d, dso, ALICE, BOB, "25",
                                                [deposit[0]["contractId"]], now)
    if kind != "direct":
        fail(f"the registry answered a {kind} transfer to bob, not a direct one", d.log)
    withdrawal = submit(d, "alice", ALICE, "exchange-withdrawal-1", command, contracts,
                        answer="update")
    bob_after = sum(amulets(d, "bob", BOB).values())
    if bob_after - bob_before != 25:
        fail(f"bob's amulets went from {bob_before} to {bob_after}", d.log)

    # 4. read back: Scan, the validator, the ledger, the completions.
    update_id = withdrawal["updateId"]
    scan = d.call("GET", f"/api/scan/v2/updates/{update_id}")
    if scan.get("update_id") != update_id:
        fail(f"Scan's update {update_id}: {json.dumps(scan)[:400]}", d.log)
    ledger = d.call("POST", "/v2/updates/update-by-id",
                    {"updateId": update_id, "updateFormat": {"includeTransactions": {
                        "eventFormat": {"filtersByParty": {ALICE: {"cumulative": []}},
                                        "verbose": False},
                        "transactionShape": "TRANSACTION_SHAPE_LEDGER_EFFECTS"}}}, "alice")
    tx = ledger["update"]["Transaction"]["value"]
    if tx["commandId"] != "exchange-withdrawal-1" or tx["offset"] != withdrawal["completionOffset"]:
        fail(f"the ledger's update {update_id}: {json.dumps(tx)[:400]}", d.log)
    d.call("POST", "/_cantonlite/v1/steps", {"step": "snapshot"})
    migration = scan["migration_id"]
    record_time = d.call("GET", "/api/scan/v0/state/acs/snapshot-timestamp?before="
                         f"2100-01-01T00:00:00Z&migration_id={migration}")["record_time"]
    summary = d.call("POST", "/api/validator/v1/scan-proxy/holdings/summary",
                     {"migration_id": migration, "record_time": record_time,
                      "owner_party_ids": [BOB]}, "bob")
    total = Decimal(summary["summaries"][0]["total_unlocked_coin"])
    if total != bob_after:
        fail(f"the validator's holdings summary of bob says {total}, the ledger {bob_after}",
             d.log)
    completions = d.call("POST", "/v2/commands/completions",
                         {"userId": "alice", "parties": [ALICE], "beginExclusive": 0}, "alice")
    ids = [c["completionResponse"]["Completion"]["value"]["commandId"] for c in completions
           if "Completion" in c["completionResponse"]]
    if ids != ["exchange-accept", "exchange-withdrawal-1"]:
        fail(f"the exchange's completions are {ids}", d.log)

    # 5. a restart replays the journal: the same holdings, and the command id is still taken.
    holdings = (amulets(d, "alice", ALICE), amulets(d, "bob", BOB))
    d.stop()
    d = Daemon(journal)
    if (amulets(d, "alice", ALICE), amulets(d, "bob", BOB)) != holdings:
        fail("the holdings changed over a restart", d.log)
    kind, command, contracts = factory_transfer(d, dso, ALICE, BOB, "1",
                                                list(holdings[0].keys())[:1], now)
    error = d.call("POST", "/v2/commands/submit-and-wait",
                   {"commands": [{"ExerciseCommand": command}], "commandId": "exchange-withdrawal-1",
                    "actAs": [ALICE], "disclosedContracts": contracts}, "alice", expect=409)
    if error["code"] != "DUPLICATE_COMMAND":
        fail(f"the replayed command id answered {error}", d.log)
    CHECK.stop_all()
    print("commands.check: passed (a deposit and a withdrawal by commands, read back, replayed)")


main()
