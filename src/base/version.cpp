#include "textedge/version.hpp"

namespace textedge {

const char* version() noexcept { return TEXTEDGE_VERSION_STRING; }

}  // namespace textedge
