// Text from users' files as UTF-8. Motion-capture and point-cloud exports from Windows
// tools (OptiTrack Motive, Vicon Nexus) carry take, marker and comment names in the
// system's 8-bit code page (Windows-1252 in Western Europe: "Größe", "Tuch_Mü"), which
// is not UTF-8; JSON (the CLI's output, the page's messages) holds only UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace tela {

// True when `bytes` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most
// U+10FFFF). Plain ASCII is UTF-8.
bool is_utf8(std::string_view bytes);

// `bytes` as UTF-8: unchanged when already well-formed, else read as Windows-1252 (a superset
// of Latin-1 for printable text; its five unassigned bytes become U+FFFD).
std::string as_utf8(std::string_view bytes);

}  // namespace tela
