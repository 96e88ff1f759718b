// The user management writes on the live default network, from Canton release-line-3.5:
// JsUserManagementService (L173-189 deleteUser: UserId.fromString of the path first, L214-247
// grant/revoke and L155-171 updateUser: the path's id against the body's, L267-281
// malformedUserId/unmatchedUserId built by the JSON layer, with the trailing space; L382-434 the
// relaxed codecs, Right.Kind an ADT), UserManagementServiceAuthorization (L46-92, L102-112: admin
// or identity provider admin; none of the latter here), ApiUserManagementService (L77-138
// createUser, L140-216 updateUser and "Requesting user cannot self-deactivate" L201, L238-272
// deleteUser and "Requesting user cannot delete itself" L259, L312-347 grantUserRights, L349-388
// revokeUserRights, L460-484 verifyPartiesExistInIdp: no check for a participant admin, L486-504
// "Requesting user cannot remove own admin rights", L548-581 fromProtoRight: "unknown kind of
// right - check that the Ledger API version of the server is recent enough"),
// PersistentUserManagementStore (L68-120 createUser, L233-247 deleteUser, L249-282 grantRights:
// the rights not held, L284-301 revokeRights: the rights held, L122-205 updateUser: every update
// increases the resource version, L385-408 withUser/withoutUser), UserManagementServiceErrors
// (L94-108 USER_NOT_FOUND "<operation> failed for unknown user", L137-151 USER_ALREADY_EXISTS
// "creating user failed, as user \"<id>\" already exists", L25-39 INVALID_USER_UPDATE_REQUEST,
// L73-88 CONCURRENT_USER_UPDATE_DETECTED), update/UpdatePathError.scala and UpdatePathsTrie.scala
// (the update mask), UserBasedClaimResolver (a deactivated user's token is refused). Notes:
// research-notes/command_service.md §5.2-5.5.
#include <chrono>
#include <filesystem>
#include <future>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/admin/admin_test_support.hpp"
#include "cantonlite/auth/jwt_signer.hpp"

namespace cantonlite::areas::ledger::user_management_test {
namespace {

using admin::admintest::alice;
using admin::admintest::bob;
using admin::admintest::LiveFixture;
using nlohmann::json;

const std::string admin_user = "ledger-api-user";
const std::string carol =
    "carol::12204c26d9074c27d89ede59270c0ac14b71e071b15239519f75474b2f3ba63481f5";
const std::string user_id_regex = "\"[a-zA-Z0-9@^$.!`\\-#+'~_|:\\(\\)]{1,128}\"";

json right(const std::string& kind, const std::string& party = "") {
    const json value = party.empty() ? json::object() : json{{"party", party}};
    return {{"kind", {{kind, {{"value", value}}}}}};
}

json user_body(const std::string& id, const json& rights = json::array(),
               const std::string& primary_party = "") {
    json user = {{"id", id}};
    if (!primary_party.empty()) user["primaryParty"] = primary_party;
    return {{"user", user}, {"rights", rights}};
}

// toProtoUser's fields in the proto's order.
nlohmann::ordered_json user_record(const std::string& id, const std::string& party,
                                   bool deactivated = false, const std::string& version = "0") {
    return {{"id", id},
            {"primaryParty", party},
            {"isDeactivated", deactivated},
            {"metadata",
             {{"resourceVersion", version}, {"annotations", nlohmann::ordered_json::object()}}},
            {"identityProviderId", ""},
            {"primaryPartyAuthentication", false}};
}

json plain(const nlohmann::ordered_json& j) {
    return json::parse(j.dump());
}

class UserManagementTest : public LiveFixture {
  protected:
    http::Response create(const json& body, const std::string& user = admin_user) {
        return as_user(user, "POST", "/v2/users", body.dump());
    }
    http::Response remove(const std::string& id, const std::string& user = admin_user) {
        return as_user(user, "DELETE", "/v2/users/" + id);
    }
    http::Response grant(const std::string& id, const json& rights,
                         const std::string& user = admin_user) {
        return as_user(user, "POST", "/v2/users/" + id + "/rights",
                       json{{"userId", id}, {"rights", rights}}.dump());
    }
    http::Response revoke(const std::string& id, const json& rights,
                          const std::string& user = admin_user) {
        return as_user(user, "PATCH", "/v2/users/" + id + "/rights",
                       json{{"userId", id}, {"rights", rights}}.dump());
    }
    http::Response update(const std::string& id, const json& user_fields, const json& paths,
                          const std::string& user = admin_user) {
        json u = user_fields;
        u["id"] = id;
        return as_user(user, "PATCH", "/v2/users/" + id,
                       json{{"user", u}, {"updateMask", {{"paths", paths}}}}.dump());
    }
    json rights_of(const std::string& id) {
        const http::Response r = as_user(admin_user, "GET", "/v2/users/" + id + "/rights");
        EXPECT_EQ(r.status, 200) << r.body;
        return json::parse(r.body)["rights"];
    }
    std::string users() const { return as_user(admin_user, "GET", "/v2/users").body; }
    bool party_listed(const std::string& party) const {
        return as_user(admin_user, "GET", "/v2/parties").body.find("\"" + party + "\"") !=
               std::string::npos;
    }

    // A call with a token signed for `user` whether or not the participant knows it.
    http::Response with_token_of(const std::string& user, const std::string& method,
                                 const std::string& target) const {
        const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        const model::Network& n = network_->store().network();
        const json claims = {{"sub", user},
                             {"aud", json::array({n.auth.audience})},
                             {"iat", now},
                             {"exp", now + 3600}};
        const std::string token =
            auth::sign_hs256(n.auth.hs256_secret.value_or(""),
                             json{{"alg", "HS256"}, {"typ", "JWT"}}.dump(), claims.dump());
        return call(method, target, "", {{"Authorization", "Bearer " + token}});
    }

    // Reads bob's active contracts as `user`: 200 with the right to read as bob, else 403.
    http::Response read_bob_as(const std::string& user) const {
        const json body = {
            {"activeAtOffset", ledger_end()},
            {"eventFormat", {{"filtersByParty", {{bob, {{"cumulative", json::array()}}}}}}}};
        return as_user(user, "POST", "/v2/state/active-contracts", body.dump());
    }

    static void expect_error(const http::Response& r, int status, const std::string& code,
                             const std::string& cause) {
        EXPECT_EQ(r.status, status) << r.body;
        ASSERT_EQ(r.content_type, "application/json") << r.body;
        const json e = json::parse(r.body);
        EXPECT_EQ(e["code"], code) << r.body;
        EXPECT_EQ(e["cause"], cause) << r.body;
    }
    static void expect_invalid_argument(const http::Response& r, const std::string& what) {
        expect_error(r, 400, "INVALID_ARGUMENT",
                     "The submitted request has invalid arguments: " + what);
    }
    // A redacted 401 or 403 (canton-ledger-behavior.md §5.1 A).
    static void expect_redacted(const http::Response& r, int status,
                                const json& context = json::object()) {
        EXPECT_EQ(r.status, status) << r.body;
        const json e = json::parse(r.body);
        EXPECT_EQ(e["code"], "NA");
        EXPECT_EQ(e["errorCategory"], -1);
        EXPECT_EQ(e["context"], context);
    }
    static void expect_decode_error(const http::Response& r, const std::string& text) {
        EXPECT_EQ(r.status, 400) << r.body;
        EXPECT_EQ(r.content_type, "text/plain; charset=UTF-8");
        EXPECT_EQ(r.body, text);
    }
};

// ---- POST /v2/users ----

TEST_F(UserManagementTest, AnAdminCreatesAUserWithItsRights) {
    const http::Response r =
        create(user_body("zoe",
                         json::array({right("CanActAs", carol), right("CanReadAs", bob),
                                      right("CanReadAsAnyParty")}),
                         carol));

    ASSERT_EQ(r.status, 200) << r.body;
    // toProtoUser (ApiUserManagementService L605-613): a new user's resource version is 0.
    EXPECT_EQ(r.body, (nlohmann::ordered_json{{"user", user_record("zoe", carol)}}.dump()));
    EXPECT_EQ(rights_of("zoe"), json::array({right("CanActAs", carol), right("CanReadAs", bob),
                                             right("CanReadAsAnyParty")}));
    EXPECT_NE(users().find("\"zoe\""), std::string::npos);
}

TEST_F(UserManagementTest, OnlyTheIdIsNeeded) {
    // The relaxed codec (JsUserManagementService L382, L415-416): every other field defaults.
    const http::Response r = create({{"user", {{"id", "bare"}}}});

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body)["user"], plain(user_record("bare", "")));
    EXPECT_EQ(rights_of("bare"), json::array());
    const http::Response self = as_user("bare", "GET", "/v2/authenticated-user");
    ASSERT_EQ(self.status, 200) << self.body;
    EXPECT_EQ(json::parse(self.body)["user"]["primaryParty"], "");
}

TEST_F(UserManagementTest, ACreatedUserHasATokenAndActsAtOnce) {
    ASSERT_EQ(create(user_body("reader", json::array({right("CanReadAs", bob)}))).status, 200);

    const http::Response self = as_user("reader", "GET", "/v2/users/reader");
    ASSERT_EQ(self.status, 200) << self.body;
    EXPECT_EQ(json::parse(self.body)["user"], plain(user_record("reader", "")));
    EXPECT_EQ(read_bob_as("reader").status, 200);
    expect_redacted(as_user("reader", "GET", "/v2/users/alice"), 403);  // no admin right
}

TEST_F(UserManagementTest, AUsersPrimaryPartyIsANameNotAnAllocation) {
    // A right or a primary party may name a party the participant does not know: a participant
    // admin's rights are not checked (verifyPartiesExistInIdp, L460-484).
    const std::string stranger = "stranger::1220abcdef";
    ASSERT_EQ(
        create(user_body("named", json::array({right("CanActAs", stranger)}), stranger)).status,
        200);

    EXPECT_EQ(rights_of("named"), json::array({right("CanActAs", stranger)}));
    EXPECT_FALSE(party_listed(stranger));
}

TEST_F(UserManagementTest, AnExistingIdIsUserAlreadyExists) {
    const http::Response r = create(user_body("alice"));

    expect_error(r, 409, "USER_ALREADY_EXISTS",
                 R"(creating user failed, as user "alice" already exists)");
    const json e = json::parse(r.body);
    EXPECT_EQ(e["errorCategory"], 10);
    EXPECT_EQ(e["resources"], json::parse(R"j([["ErrorResource(USER)","alice"]])j"));
    EXPECT_EQ(e["definiteAnswer"], nullptr);
    EXPECT_EQ(e["context"]["definite_answer"], "false");
}

TEST_F(UserManagementTest, TheRequestIsValidatedInCantonsOrder) {
    // createUser L85-121: user, id, resource version, annotations, primary party, rights, idp.
    expect_error(create(json::object()), 400, "MISSING_FIELD",
                 "The submitted command is missing a mandatory field: user");
    expect_error(create(user_body("")), 400, "MISSING_FIELD",
                 "The submitted command is missing a mandatory field: id");
    expect_error(create(user_body("no spaces")), 400, "INVALID_FIELD",
                 "The submitted command has a field with invalid value: Invalid field id: User ID "
                 "\"no spaces\" does not match regex " +
                     user_id_regex);
    expect_invalid_argument(
        create({{"user", {{"id", "v"}, {"metadata", {{"resourceVersion", "3"}}}}}}),
        "field user.metadata.resource_version must be not set");
    expect_invalid_argument(create(user_body("p", json::array(), "bad!")),
                            "non expected character 0x21 in Daml-LF Party \"bad!\"");
    expect_invalid_argument(create(user_body("r", json::array({right("CanReadAs", "")}))),
                            "Daml-LF Party is empty");
    const std::string unknown_kind =
        "unknown kind of right - check that the Ledger API version of the server is recent enough";
    expect_invalid_argument(
        create(user_body("e", json::array({{{"kind", {{"Empty", json::object()}}}}}))),
        unknown_kind);
    // A missing kind is the relaxed codec's Empty (CirceRelaxedCodec: a oneof defaults to it).
    expect_invalid_argument(create(user_body("e", json::array({json::object()}))), unknown_kind);
    expect_invalid_argument(create({{"user", {{"id", "i"}, {"identityProviderId", "idp1"}}}}),
                            "Provided identity_provider_id idp1 has not been found.");
    expect_error(create({{"user", {{"id", "i"}, {"identityProviderId", "bad!"}}}}), 400,
                 "INVALID_FIELD",
                 "The submitted command has a field with invalid value: Invalid field "
                 "identity_provider_id: non expected character 0x21 in Daml-LF Ledger String "
                 "\"bad!\"");
    EXPECT_EQ(users().find("\"v\""), std::string::npos);  // nothing was created
}

TEST_F(UserManagementTest, ABodyTheRelaxedCodecCannotReadIsATextError) {
    expect_decode_error(create({{"user", {{"id", 5}}}}),
                        "Invalid value for: body (Got value '5' with wrong type, expecting string "
                        "at 'id')");
    expect_decode_error(create({{"user", {{"id", "x"}}}, {"rights", "all"}}),
                        "Invalid value for: body (Got value '\"all\"' with wrong type, expecting "
                        "array at 'rights')");
    // Right.Kind is an ADT (deriveConfiguredCodec): an unknown alternative fails as circe's
    // coproduct does; CanActAsAnyParty is one of Canton 3.6's only.
    const std::string cnil =
        "Invalid value for: body (JSON decoding to CNil should never happen at 'kind')";
    expect_decode_error(
        create(user_body("x", json::array({{{"kind", {{"CanDoAnything", json::object()}}}}}))),
        cnil);
    expect_decode_error(create(user_body("x", json::array({right("CanActAsAnyParty")}))), cnil);
    expect_decode_error(
        create(user_body("x", json::array({{{"kind", {{"CanActAs", json::object()}}}}}))),
        "Invalid value for: body (Missing required field at 'value')");
    // Decoded before the claims: no token is needed for this answer.
    expect_decode_error(call("POST", "/v2/users", "{\"user\": []}"),
                        "Invalid value for: body (Missing required field at 'id')");
}

TEST_F(UserManagementTest, RightsAndFieldsCantonliteDoesNotModelAreRefusedClearly) {
    const auto refused = [&](const json& body, const std::string& what) {
        const http::Response r = create(body);
        expect_invalid_argument(r, "cantonlite does not model " + what);
    };
    const std::string only =
        ": a user here holds CanActAs, CanReadAs, CanReadAsAnyParty and ParticipantAdmin only";
    refused(user_body("x", json::array({right("CanExecuteAs", bob)})),
            "the right CanExecuteAs" + only);
    refused(user_body("x", json::array({right("CanExecuteAsAnyParty")})),
            "the right CanExecuteAsAnyParty" + only);
    refused(user_body("x", json::array({right("IdentityProviderAdmin")})),
            "the right IdentityProviderAdmin" + only);
    refused({{"user", {{"id", "x"}, {"primaryPartyAuthentication", true}}}},
            "primary party authentication (party-signed tokens)");
    refused({{"user", {{"id", "x"}, {"metadata", {{"annotations", {{"k", "v"}}}}}}}},
            "user annotations: create the user without metadata.annotations");
    // Canton's own answers come first: an existing user is still USER_ALREADY_EXISTS.
    EXPECT_EQ(create(user_body("alice", json::array({right("CanExecuteAs", bob)}))).status, 409);
    EXPECT_EQ(users().find("\"x\""), std::string::npos);
}

TEST_F(UserManagementTest, OnCanton36CanActAsAnyPartyIsAKindButNotModelled) {
    router_ = app::make_router(*network_, admin::admintest::open_options(),
                               ApiProfile{.release = Release::splice_0_9});

    expect_invalid_argument(create(user_body("x", json::array({right("CanActAsAnyParty")}))),
                            "cantonlite does not model the right CanActAsAnyParty: a user here "
                            "holds CanActAs, CanReadAs, CanReadAsAnyParty and ParticipantAdmin "
                            "only");
    // Never held, so never revoked.
    const http::Response r = revoke("alice", json::array({right("CanActAsAnyParty")}));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, R"({"newlyRevokedRights":[]})");
    EXPECT_EQ(create(user_body("y", json::array({right("CanActAs", bob)}))).status, 200);
}

TEST_F(UserManagementTest, AUserCreatedDeactivatedHasItsTokensRefused) {
    ASSERT_EQ(create({{"user", {{"id", "sleeper"}, {"isDeactivated", true}}}}).status, 200);

    EXPECT_EQ(
        json::parse(as_user(admin_user, "GET", "/v2/users/sleeper").body)["user"]["isDeactivated"],
        true);
    // UserBasedClaimResolver: the user must be active, else the JSON security stage's 403.
    expect_redacted(as_user("sleeper", "GET", "/v2/users/sleeper"), 403,
                    {{"ledger_api_error", "invalid token"}});
}

TEST_F(UserManagementTest, CreatingNeedsParticipantAdmin) {
    expect_redacted(call("POST", "/v2/users", user_body("anon").dump()), 401);
    expect_redacted(create(user_body("mine"), "alice"), 403);
    expect_redacted(create(user_body("mine"), "auditor"), 403);  // reading any party is not enough
    EXPECT_EQ(users().find("\"mine\""), std::string::npos);
}

// ---- DELETE /v2/users/{user-id} ----

TEST_F(UserManagementTest, AnAdminDeletesAUser) {
    ASSERT_EQ(create(user_body("gone", json::array({right("CanActAs", carol)}))).status, 200);

    const http::Response r = remove("gone");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, "{}");
    expect_error(as_user(admin_user, "GET", "/v2/users/gone"), 404, "USER_NOT_FOUND",
                 R"(getting user failed for unknown user "gone")");
    expect_redacted(with_token_of("gone", "GET", "/v2/users/gone"), 403,
                    {{"ledger_api_error", "invalid token"}});
    EXPECT_EQ(create(user_body("gone")).status, 200);  // the id is free again
}

TEST_F(UserManagementTest, ADeletedUsersPartyStaysTheParticipants) {
    ASSERT_EQ(remove("carol").status, 200);

    EXPECT_TRUE(party_listed(carol));
    EXPECT_EQ(as_user(admin_user, "GET", "/v2/parties/" + carol).status, 200);
    const http::Response again =
        create(user_body("carol", json::array({right("CanActAs", carol)}), carol));
    ASSERT_EQ(again.status, 200) << again.body;
    EXPECT_EQ(json::parse(as_user("carol", "GET", "/v2/authenticated-user").body)["user"],
              plain(user_record("carol", carol)));
}

TEST_F(UserManagementTest, ADeletedWalletUsersWalletIsNoLongerServed) {
    ASSERT_EQ(with_token_of("bob", "GET", admin::admintest::offers).status, 200);

    ASSERT_EQ(remove("bob").status, 200);

    // docs/FIDELITY.md row 77: the validator API finds no wallet user (Splice's keeps its store).
    EXPECT_EQ(with_token_of("bob", "GET", admin::admintest::offers).status, 404);
}

TEST_F(UserManagementTest, DeletingAnUnknownUserIsNotFound) {
    const http::Response r = remove("nobody");

    expect_error(r, 404, "USER_NOT_FOUND", R"(deleting user failed for unknown user "nobody")");
    EXPECT_EQ(json::parse(r.body)["resources"],
              json::parse(R"j([["ErrorResource(USER)","nobody"]])j"));
}

TEST_F(UserManagementTest, AUserCannotDeleteItself) {
    expect_invalid_argument(remove(admin_user), "Requesting user cannot delete itself");
    EXPECT_EQ(as_user(admin_user, "GET", "/v2/users/" + admin_user).status, 200);
}

TEST_F(UserManagementTest, AMalformedIdIsTheJsonLayersAnswerBeforeTheClaims) {
    const http::Response r = call("DELETE", "/v2/users/bad%20id");

    expect_invalid_argument(
        r, "Malformed user-id: User ID \"bad id\" does not match regex " + user_id_regex);
    // JsCantonError.fromErrorCode (canton-ledger-behavior.md §5.1 B).
    const json e = json::parse(r.body);
    EXPECT_EQ(e["definiteAnswer"], false);
    EXPECT_EQ(e["correlationId"], e["traceId"]);
    EXPECT_FALSE(e["context"].contains("category"));
}

TEST_F(UserManagementTest, DeletingNeedsParticipantAdmin) {
    expect_redacted(call("DELETE", "/v2/users/bob"), 401);
    expect_redacted(remove("bob", "alice"), 403);
    expect_redacted(remove("nobody", "alice"), 403);  // the claims come before the lookup
    EXPECT_EQ(as_user(admin_user, "GET", "/v2/users/bob").status, 200);
}

// ---- POST and PATCH /v2/users/{user-id}/rights ----

TEST_F(UserManagementTest, AGrantAnswersTheRightsNotHeldBefore) {
    const http::Response r =
        grant("carol", json::array({right("CanActAs", carol), right("CanReadAs", bob),
                                    right("CanReadAs", bob), right("ParticipantAdmin")}));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body),
              json({{"newlyGrantedRights",
                     json::array({right("CanReadAs", bob), right("ParticipantAdmin")})}}));
    EXPECT_EQ(rights_of("carol"), json::array({right("CanActAs", carol), right("CanReadAs", bob),
                                               right("ParticipantAdmin")}));
    const http::Response again = grant("carol", json::array({right("CanReadAs", bob)}));
    ASSERT_EQ(again.status, 200) << again.body;
    EXPECT_EQ(again.body, R"({"newlyGrantedRights":[]})");
}

TEST_F(UserManagementTest, AGrantedRightTakesEffectAtOnce) {
    expect_redacted(read_bob_as("carol"), 403);

    ASSERT_EQ(grant("carol", json::array({right("CanReadAs", bob)})).status, 200);

    EXPECT_EQ(read_bob_as("carol").status, 200);
    ASSERT_EQ(revoke("carol", json::array({right("CanReadAs", bob)})).status, 200);
    expect_redacted(read_bob_as("carol"), 403);
}

TEST_F(UserManagementTest, ARevokeAnswersTheRightsHeldBefore) {
    const http::Response r =
        revoke("dave", json::array({right("CanReadAs", bob), right("CanActAs", bob),
                                    right("CanReadAsAnyParty"), right("CanExecuteAs", bob)}));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body,
              json({{"newlyRevokedRights", json::array({right("CanReadAs", bob)})}}).dump());
    EXPECT_EQ(
        rights_of("dave"),
        json::array(
            {right("CanActAs",
                   "dave::122061ea0803f8853523b777d414ace3130cd4d3f92de2cd7ff8695c337d79c2eeee"),
             right("CanReadAs", alice)}));
}

TEST_F(UserManagementTest, ThePathsUserMustBeTheBodys) {
    // unmatchedUserId (JsUserManagementService L272-281): the Option printed, a space at the end;
    // the JSON layer answers before the claims.
    const http::Response other =
        call("POST", "/v2/users/alice/rights",
             json{{"userId", "bob"}, {"rights", json::array({right("CanReadAs", bob)})}}.dump());
    expect_invalid_argument(other, "alice does not match user in body: Some(bob) ");
    EXPECT_EQ(json::parse(other.body)["definiteAnswer"], false);
    expect_invalid_argument(
        as_user(admin_user, "PATCH", "/v2/users/alice/rights", R"({"rights": []})"),
        "alice does not match user in body: Some() ");
    expect_invalid_argument(as_user(admin_user, "PATCH", "/v2/users/alice",
                                    R"({"updateMask": {"paths": ["is_deactivated"]}})"),
                            "alice does not match user in body: None ");
}

TEST_F(UserManagementTest, RightsOfAnUnknownUserAreNotFound) {
    expect_error(grant("nobody", json::array({right("CanReadAs", bob)})), 404, "USER_NOT_FOUND",
                 R"(grant user rights failed for unknown user "nobody")");
    expect_error(revoke("nobody", json::array({right("CanReadAs", bob)})), 404, "USER_NOT_FOUND",
                 R"(revoke user rights failed for unknown user "nobody")");
    // Not found comes before a right cantonlite does not model.
    expect_error(grant("nobody", json::array({right("CanExecuteAs", bob)})), 404, "USER_NOT_FOUND",
                 R"(grant user rights failed for unknown user "nobody")");
}

TEST_F(UserManagementTest, GrantedRightsAreValidated) {
    expect_invalid_argument(grant("carol", json::array({right("CanActAs", "no!way")})),
                            "non expected character 0x21 in Daml-LF Party \"no!way\"");
    expect_invalid_argument(
        grant("carol", json::array({json{{"kind", {{"Empty", json::object()}}}}})),
        "unknown kind of right - check that the Ledger API version of the "
        "server is recent enough");
    expect_error(as_user(admin_user, "POST", "/v2/users/bad%20id/rights",
                         json{{"userId", "bad id"}, {"rights", json::array()}}.dump()),
                 400, "INVALID_FIELD",
                 "The submitted command has a field with invalid value: Invalid field user_id: "
                 "User ID \"bad id\" does not match regex " +
                     user_id_regex);
    expect_invalid_argument(grant("carol", json::array({right("IdentityProviderAdmin")})),
                            "cantonlite does not model the right IdentityProviderAdmin: a user "
                            "here holds CanActAs, CanReadAs, CanReadAsAnyParty and "
                            "ParticipantAdmin only");
    // Another identity provider: the store's PermissionDenied.
    expect_redacted(as_user(admin_user, "POST", "/v2/users/carol/rights",
                            json{{"userId", "carol"},
                                 {"rights", json::array({right("CanReadAs", bob)})},
                                 {"identityProviderId", "idp1"}}
                                .dump()),
                    403);
    EXPECT_EQ(rights_of("carol"), json::array({right("CanActAs", carol)}));
}

TEST_F(UserManagementTest, AnAdminCannotRevokeItsOwnAdminRight) {
    expect_invalid_argument(revoke(admin_user, json::array({right("ParticipantAdmin")})),
                            "Requesting user cannot remove own admin rights");
    // Another admin's, it can.
    ASSERT_EQ(grant("carol", json::array({right("ParticipantAdmin")})).status, 200);
    const http::Response r = revoke("carol", json::array({right("ParticipantAdmin")}));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body)["newlyRevokedRights"], json::array({right("ParticipantAdmin")}));
}

TEST_F(UserManagementTest, AGrantedAdminMayManageUsers) {
    ASSERT_EQ(grant("carol", json::array({right("ParticipantAdmin")})).status, 200);

    EXPECT_EQ(create(user_body("carols"), "carol").status, 200);
    EXPECT_EQ(remove("carols", "carol").status, 200);
}

TEST_F(UserManagementTest, RightsNeedParticipantAdmin) {
    expect_redacted(
        as_user(
            "carol", "POST", "/v2/users/carol/rights",
            json{{"userId", "carol"}, {"rights", json::array({right("CanReadAs", bob)})}}.dump()),
        403);
    expect_redacted(
        call("PATCH", "/v2/users/dave/rights",
             json{{"userId", "dave"}, {"rights", json::array({right("CanReadAs", bob)})}}.dump()),
        401);
    EXPECT_EQ(rights_of("carol"), json::array({right("CanActAs", carol)}));
}

TEST_F(UserManagementTest, AUserMayHoldAThousandRightsAtMost) {
    json rights = json::array();
    for (int i = 0; i < 1000; ++i) rights.push_back(right("CanReadAs", "p" + std::to_string(i)));
    // carol holds one already.
    expect_error(grant("carol", rights), 400, "TOO_MANY_USER_RIGHTS",
                 R"(grant user rights failed, as user "carol" would have too many rights.)");
    rights.push_back(right("CanActAs", carol));
    expect_error(create(user_body("many", rights)), 400, "TOO_MANY_USER_RIGHTS",
                 R"(creating user failed, as user "many" would have too many rights.)");
}

// ---- PATCH /v2/users/{user-id} ----

TEST_F(UserManagementTest, AnUpdateSetsTheMaskedFieldsAndCountsTheVersion) {
    const http::Response r = update("carol", {{"primaryParty", bob}, {"isDeactivated", false}},
                                    json::array({"primary_party"}));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body,
              (nlohmann::ordered_json{{"user", user_record("carol", bob, false, "1")}}.dump()));
    // An exact path sets the default value too: primary_party "" clears it.
    const http::Response cleared = update("carol", json::object(), json::array({"primary_party"}));
    ASSERT_EQ(cleared.status, 200) << cleared.body;
    EXPECT_EQ(json::parse(cleared.body)["user"], plain(user_record("carol", "", false, "2")));
    // carol's party is still the participant's.
    EXPECT_TRUE(party_listed(carol));
}

TEST_F(UserManagementTest, AnUpdateMayDeactivateAndReactivate) {
    ASSERT_EQ(update("carol", {{"isDeactivated", true}}, json::array({"is_deactivated"})).status,
              200);
    expect_redacted(as_user("carol", "GET", "/v2/users/carol"), 403,
                    {{"ledger_api_error", "invalid token"}});

    // A prefix path only updates a field given a value other than its default.
    ASSERT_EQ(update("carol", {{"primaryParty", carol}}, json::array({"metadata"})).status, 200);
    ASSERT_EQ(update("carol", {{"isDeactivated", false}}, json::array({"is_deactivated"})).status,
              200);
    const http::Response self = as_user("carol", "GET", "/v2/users/carol");
    ASSERT_EQ(self.status, 200) << self.body;
    EXPECT_EQ(json::parse(self.body)["user"], plain(user_record("carol", carol, false, "3")));
}

TEST_F(UserManagementTest, AnUpdateMaskIsValidated) {
    const auto invalid = [&](const json& paths, const std::string& reason) {
        expect_error(update("carol", json::object(), paths), 400, "INVALID_USER_UPDATE_REQUEST",
                     "Update operation for user id 'carol' failed due to: " + reason);
    };
    invalid(json::array(), "The update mask contains no entries");
    invalid(json::array({"primary_party", "name"}),
            "The update path: 'name' points to an unknown field.");
    invalid(json::array({"metadata.annotations.key"}),
            "The update path: 'metadata.annotations.key' points to an unknown field.");
    invalid(json::array({"is_deactivated", "is_deactivated"}),
            "The update path: 'is_deactivated' is duplicated.");
    invalid(json::array({std::string(60, 'x')}),
            "The update path: '" + std::string(50, 'x') + "...' points to an unknown field.");
    expect_error(as_user(admin_user, "PATCH", "/v2/users/carol", R"({"user": {"id": "carol"}})"),
                 400, "MISSING_FIELD",
                 "The submitted command is missing a mandatory field: update_mask");
    const http::Response r = update("carol", json::object(), json::array());
    EXPECT_EQ(json::parse(r.body)["resources"],
              json::parse(R"j([["ErrorResource(USER)","carol"]])j"));
    EXPECT_EQ(json::parse(r.body)["context"].contains("definite_answer"), false);
}

TEST_F(UserManagementTest, AnUpdateChecksItsResourceVersion) {
    const http::Response stale =
        update("carol", {{"metadata", {{"resourceVersion", "7"}}}, {"isDeactivated", false}},
               json::array({"is_deactivated"}));
    expect_error(stale, 409, "CONCURRENT_USER_UPDATE_DETECTED",
                 "Update operation for user 'carol' failed due to a concurrent update to the same "
                 "user");
    EXPECT_EQ(json::parse(stale.body)["errorCategory"], 2);
    expect_error(update("carol", {{"metadata", {{"resourceVersion", "seven"}}}},
                        json::array({"is_deactivated"})),
                 400, "INVALID_FIELD",
                 "The submitted command has a field with invalid value: Invalid field "
                 "user.metadata.resource_version: Invalid resource version number");
    EXPECT_EQ(
        update("carol", {{"metadata", {{"resourceVersion", "0"}}}}, json::array({"is_deactivated"}))
            .status,
        200);
}

TEST_F(UserManagementTest, AnUpdateOfAnUnknownUserOrOfOneselfIsRefused) {
    expect_error(update("nobody", json::object(), json::array({"is_deactivated"})), 404,
                 "USER_NOT_FOUND", R"(updating user failed for unknown user "nobody")");
    expect_invalid_argument(
        update(admin_user, {{"isDeactivated", true}}, json::array({"is_deactivated"})),
        "Requesting user cannot self-deactivate");
    expect_invalid_argument(update("carol", {{"primaryPartyAuthentication", true}},
                                   json::array({"primary_party_authentication"})),
                            "cantonlite does not model primary party authentication "
                            "(party-signed tokens)");
    expect_redacted(
        update("dave", {{"isDeactivated", true}}, json::array({"is_deactivated"}), "carol"), 403);
}

// ---- the steps the writes are journaled as ----

TEST_F(UserManagementTest, TheStepsRefuseWhatAConcurrentWriteMadeStale) {
    // A write is planned under the readers' lock and written after: its steps check what the plan
    // saw, so that the handler plans again rather than answer what did not happen.
    const auto refused = [&](const json& step, const std::string& problem) {
        const std::string error = admin_error("POST", "/steps", 400, step.dump());
        EXPECT_NE(error.find(problem), std::string::npos) << error;
    };
    refused({{"step", "create_user"}, {"id", "alice"}}, "user 'alice' exists");
    refused({{"step", "delete_user"}, {"id", "nobody"}}, "no user 'nobody'");
    refused(
        {{"step", "grant_user_rights"}, {"user", "carol"}, {"rights", {{"can_act_as", {carol}}}}},
        "has the right for " + carol);
    refused(
        {{"step", "revoke_user_rights"}, {"user", "carol"}, {"rights", {{"can_read_as", {bob}}}}},
        "lacks the right for " + bob);
    refused({{"step", "update_user"}, {"id", "carol"}, {"resource_version", 4}},
            "is at resource version 0");
    // Party ids as written: one the participant does not know is no error.
    steps({{"step", "create_user"},
           {"id", "ops"},
           {"primary_party", "unknown::1220ab"},
           {"rights", {{"can_act_as", {"unknown::1220ab"}}, {"participant_admin", true}}}});
    EXPECT_EQ(create(user_body("by-ops"), "ops").status, 200);
}

// ---- snapshots and resets ----

TEST_F(UserManagementTest, ARevertTakesTheUserWritesBack) {
    const std::string before = users();
    const json rights_before = rights_of("dave");
    const json snapshot = admin("POST", "/snapshots");
    ASSERT_EQ(create(user_body("temporary", json::array({right("CanActAs", bob)}))).status, 200);
    ASSERT_EQ(remove("carol").status, 200);
    ASSERT_EQ(grant("dave", json::array({right("ParticipantAdmin")})).status, 200);
    ASSERT_EQ(revoke("dave", json::array({right("CanReadAs", alice)})).status, 200);
    ASSERT_EQ(update("alice", {{"isDeactivated", true}}, json::array({"is_deactivated"})).status,
              200);

    admin("POST", "/snapshots/" + snapshot["id"].get<std::string>() + "/revert");

    EXPECT_EQ(users(), before);
    EXPECT_EQ(rights_of("dave"), rights_before);
    EXPECT_EQ(as_user("alice", "GET", "/v2/users/alice").status, 200);
}

TEST_F(UserManagementTest, AResetTakesTheUserWritesBack) {
    const std::string before = users();
    ASSERT_EQ(create(user_body("temporary")).status, 200);
    ASSERT_EQ(remove("bob").status, 200);

    admin("POST", "/reset");

    EXPECT_EQ(users(), before);
}

// ---- the journal ----

using JournaledUserManagementTest = admin::admintest::Journaled<UserManagementTest>;

TEST_F(JournaledUserManagementTest, TheWritesAreAnsweredOnceDurableAndSurviveARestart) {
    const http::Response created = router_->handle(http::Request{
        .method = "POST",
        .target = "/v2/users",
        .headers = {{"Authorization", bearer(admin_user)}},
        .body = user_body("kept", json::array({right("CanActAs", carol)}), carol).dump()});
    ASSERT_TRUE(static_cast<bool>(created.deferred));  // acknowledged once durable
    std::promise<http::Response> answer;
    auto future = answer.get_future();
    created.deferred([&answer](http::Response r) { answer.set_value(std::move(r)); });
    ASSERT_EQ(future.get().status, 200);
    ASSERT_EQ(create(user_body("dropped")).status, 200);
    ASSERT_EQ(
        grant("kept", json::array({right("CanReadAs", bob), right("CanReadAsAnyParty")})).status,
        200);
    ASSERT_EQ(revoke("kept", json::array({right("CanReadAsAnyParty")})).status, 200);
    ASSERT_EQ(update("kept", {{"primaryParty", bob}}, json::array({"primary_party"})).status, 200);
    ASSERT_EQ(remove("dropped").status, 200);
    ASSERT_EQ(remove("carol").status, 200);
    ASSERT_EQ(grant("kept", json::array({right("CanReadAs", bob)})).status, 200);  // nothing new
    const std::string list = users();
    const json rights = rights_of("kept");

    restart();

    EXPECT_EQ(journal_->recovered().size(), 7U);  // the grant that changed nothing wrote nothing
    EXPECT_EQ(users(), list);
    EXPECT_EQ(rights_of("kept"), rights);
    EXPECT_EQ(json::parse(as_user("kept", "GET", "/v2/users/kept").body)["user"],
              plain(user_record("kept", bob, false, "1")));
    EXPECT_TRUE(party_listed(carol));
}

}  // namespace
}  // namespace cantonlite::areas::ledger::user_management_test
