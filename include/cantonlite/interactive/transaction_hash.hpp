#pragma once
// The hash an external party signs: Canton's external-signing hashing scheme (V2 and V3) over a
// prepared transaction (prepared_transaction.proto), byte for byte as Canton 3.5 computes it
// (protocol/hash: TransactionHash, NodeHashBuilder, TransactionMetadataHasher, LfValueHashBuilder)
// and as the wallet SDK recomputes it. docs/interactive.md walks through the encoding.
//
// The hash is a function of the decoded transaction, never of its bytes: prepare hashes what it
// encodes, execute hashes what it decodes, and a tampered transaction hashes differently.

#include <array>
#include <stdexcept>
#include <string>

#include "prepared_transaction.pb.h"
#include "value.pb.h"

namespace cantonlite::interactive {

enum class HashingScheme { v2 = 2, v3 = 3 };

using Hash = std::array<unsigned char, 32>;

// What the scheme cannot hash: a node id without a node, a create or exercise without its seed, a
// contract id that is not hex, a node or key the scheme predates (V2 and contract keys).
class HashError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// SHA-256(purpose 48 ‖ scheme byte ‖ transaction hash ‖ metadata hash). Throws HashError.
[[nodiscard]] Hash prepared_transaction_hash(const wire::PreparedTransaction& prepared,
                                             HashingScheme scheme);
// SHA-256(purpose 48 ‖ version ‖ the roots' node hashes).
[[nodiscard]] Hash transaction_hash(const wire::DamlTransaction& transaction, HashingScheme scheme);
// SHA-256(purpose 48 ‖ the submitter info, ids, times and input contracts [‖ max record time]).
[[nodiscard]] Hash metadata_hash(const wire::Metadata& metadata, HashingScheme scheme);

// The encoding of one value (the same in V2 and V3), for tests and hashing details.
[[nodiscard]] std::string value_encoding(const wire::Value& value);

}  // namespace cantonlite::interactive
