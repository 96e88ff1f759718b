#pragma once
// State files (docs/state-files.md): a whole network as it stands, binary, versioned and
// checksummed, written and read by cantonlite (LiveNetwork::state, LiveNetwork::load_state_file).

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cantonlite::seed {

// A state file's first 16 bytes.
inline constexpr std::string_view state_file_magic = "cantonlite state";
// The format this cantonlite writes and reads. A file of another format is refused.
inline constexpr std::uint32_t state_file_format = 1;

// Bytes that are not a state file this cantonlite reads: another kind of file, another format,
// truncated or damaged. what() is one line, without the file's name.
class StateError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace cantonlite::seed
