#pragma once
// State files (docs/state-files.md): a whole network as it stands, binary, versioned and
// checksummed, written and read by cantonlite (LiveNetwork::state, LiveNetwork::load_state_file).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cantonlite::seed {

// A state file's first 16 bytes.
inline constexpr std::string_view state_file_magic = "cantonlite state";
// A state file's header: the magic, the format, the payload's CRC-32 and its size; the payload
// follows it.
inline constexpr std::size_t state_file_header_size = 32;
// The format this cantonlite writes and reads. A file of another format is refused.
inline constexpr std::uint32_t state_file_format = 6;

// Bytes that are not a state file this cantonlite reads: another kind of file, another format,
// truncated or damaged. what() is one line, without the file's name.
class StateError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A state file written to disk: its header (state_file_header_size bytes), or why it was not.
struct WrittenStateFile {
    std::string header;
    std::optional<std::string> error;  // one line, naming the file
};

// Writes the header of `file` over its first state_file_header_size bytes, for the payload that
// follows them. REQUIRES: file.size() >= state_file_header_size.
void seal_state_file(std::string& file);

}  // namespace cantonlite::seed
