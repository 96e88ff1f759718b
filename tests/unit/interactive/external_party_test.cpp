#include "cantonlite/interactive/external_party.hpp"

#include <string>

#include <gtest/gtest.h>

#include "cantonlite/model/ids.hpp"

namespace cantonlite::interactive::external_party_test {
namespace {

// A real onboarding through Canton's JSON Ledger API (jimmychu0807-da/cx-onboarding cf167894,
// assignment/external-signing/alice-allocation): the key given, the topology Canton generated,
// its multi-hash, and the party's signature of it in the allocate request.
const std::string spki_key = "MCowBQYDK2VwAyEAX6tUMQgoR9gYiS07A0WiK+HUtN59ned0VmMzgDRSV+8=";
const std::string participant =
    "participant1::1220c7cd09b8a079bcad81c0ca94ce3dc63b0444281c83b33c3af9657c51643542ff";
const std::string generated_transaction =
    "Cu4BCAEQARrnAUrkAQpLYWxpY2U6OjEyMjBlNjlhNjQ1OWNiOTAzOTdlMDEyZjkzYzE5YzU3Y2I5NGM5NWYyNmQxOD"
    "Q3NGQzYzQzMzkyZjNmZDAxZTMzZGQ5EAEaVgpScGFydGljaXBhbnQxOjoxMjIwYzdjZDA5YjhhMDc5YmNhZDgxYzBj"
    "YTk0Y2UzZGM2M2IwNDQ0MjgxYzgzYjMzYzNhZjk2NTdjNTE2NDM1NDJmZhACMjsKNxAEGiwwKjAFBgMrZXADIQBfq1"
    "QxCChH2BiJLTsDRaIr4dS03n2d53RWYzOANFJX7yoDAQUEMAEQARAe";
const std::string multi_hash = "EiDEIQJ0mgfp00M19EWYzWZRsLx0Sq5gekbtnvvRrM0IxQ==";
const std::string signature =
    "vfexFSYZA8qD9uXIpQ0NXrSff7h7AygvdT4EJzdSxglNNjLxXTZIMJ39rL7wV+oYOJPMQgU4cQCSDjk8TZXjCA==";

std::string decoded(const std::string& base64) {
    auto bytes = model::base64_decode(base64);
    EXPECT_TRUE(bytes.has_value()) << base64;
    return bytes.value_or("");
}

std::string raw_key() {
    return ed25519_raw_key(KeyFormat::der_x509_spki, decoded(spki_key)).value_or("");
}

TEST(ExternalParty, TheRawKeyIsInsideItsSubjectPublicKeyInfo) {
    EXPECT_EQ(raw_key().size(), 32U);
    EXPECT_EQ(ed25519_raw_key(KeyFormat::raw, raw_key()), raw_key());
    EXPECT_EQ(ed25519_raw_key(KeyFormat::raw, decoded(spki_key)), std::nullopt);
    EXPECT_EQ(ed25519_raw_key(KeyFormat::der_x509_spki, raw_key()), std::nullopt);
}

TEST(ExternalParty, TheFingerprintIsCantons) {
    EXPECT_EQ(key_fingerprint(raw_key()),
              "1220e69a6459cb90397e012f93c19c57cb94c95f26d18474d3c43392f3fd01e33dd9");
}

TEST(ExternalParty, GeneratesTheTopologyCantonGenerated) {
    const OnboardingTopology t = generate_onboarding("alice", raw_key(), participant);

    EXPECT_EQ(t.party_id,
              "alice::1220e69a6459cb90397e012f93c19c57cb94c95f26d18474d3c43392f3fd01e33dd9");
    EXPECT_EQ(t.fingerprint,
              "1220e69a6459cb90397e012f93c19c57cb94c95f26d18474d3c43392f3fd01e33dd9");
    ASSERT_EQ(t.transactions.size(), 1U);
    EXPECT_EQ(model::base64_encode(t.transactions[0]), generated_transaction);
    EXPECT_EQ(model::base64_encode(t.multi_hash), multi_hash);
}

TEST(ExternalParty, TheMultiHashOfOneTransactionIsItsCombinedHash) {
    const std::string tx_hash = topology_transaction_hash(decoded(generated_transaction));
    EXPECT_EQ(model::base64_encode(multi_transaction_hash({tx_hash})), multi_hash);
    // A set: the same hash twice is once.
    EXPECT_EQ(model::base64_encode(multi_transaction_hash({tx_hash, tx_hash})), multi_hash);
}

TEST(ExternalParty, VerifiesThePartysSignatureOfTheMultiHash) {
    EXPECT_TRUE(ed25519_verify(raw_key(), decoded(multi_hash), decoded(signature)));

    std::string tampered = decoded(multi_hash);
    tampered[5] ^= 1;
    EXPECT_FALSE(ed25519_verify(raw_key(), tampered, decoded(signature)));
    std::string forged = decoded(signature);
    forged[0] ^= 1;
    EXPECT_FALSE(ed25519_verify(raw_key(), decoded(multi_hash), forged));
    EXPECT_FALSE(ed25519_verify(raw_key(), decoded(multi_hash), decoded(signature).substr(1)));
    const std::string other_key = ed25519_public_key(std::string(32, '\x07'));
    EXPECT_FALSE(ed25519_verify(other_key, decoded(multi_hash), decoded(signature)));
}

TEST(ExternalParty, SignsAsItVerifies) {
    const std::string private_key(32, '\x2a');
    const std::string message = "prepared transaction hash";
    const std::string public_key = ed25519_public_key(private_key);

    const std::string signed_ = ed25519_sign(private_key, message);

    EXPECT_EQ(signed_.size(), 64U);
    EXPECT_TRUE(ed25519_verify(public_key, message, signed_));
    EXPECT_FALSE(ed25519_verify(public_key, message + ".", signed_));
}

TEST(ExternalParty, ReadsBackTheOnboardingTransaction) {
    const PartyToParticipantTransaction t = read_onboarding(decoded(generated_transaction));

    EXPECT_EQ(t.party,
              "alice::1220e69a6459cb90397e012f93c19c57cb94c95f26d18474d3c43392f3fd01e33dd9");
    EXPECT_EQ(t.threshold, 1U);
    ASSERT_EQ(t.hosts.size(), 1U);
    EXPECT_EQ(t.hosts[0].participant_uid, participant);
    EXPECT_EQ(t.hosts[0].permission, 2);  // confirmation
    ASSERT_EQ(t.signing_keys.size(), 1U);
    EXPECT_EQ(t.signing_keys[0], raw_key());
}

TEST(ExternalParty, RefusesWhatIsNoOnboardingTransaction) {
    EXPECT_THROW((void)read_onboarding("not a transaction"), TopologyError);
    EXPECT_THROW((void)read_onboarding(""), TopologyError);
    // The serial, inside: 10 01 becomes 10 02.
    std::string serial_two = decoded(generated_transaction);
    const auto at = serial_two.find(std::string("\x10\x01\x1a", 3));
    ASSERT_NE(at, std::string::npos);
    serial_two[at + 1] = 2;
    try {
        (void)read_onboarding(serial_two);
        ADD_FAILURE() << "read a serial-2 transaction";
    } catch (const TopologyError& e) {
        EXPECT_STREQ(e.what(), "Onboarding transaction serial must be 1");
    }
}

}  // namespace
}  // namespace cantonlite::interactive::external_party_test
