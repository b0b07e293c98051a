// C3D motion-capture files (binary; c3d.org, "The C3D File Format User Guide"): a 512-byte header
// block, a parameter section (mocap/c3d_parameters.h) and frames of 3D points, each point four
// words x, y, z, residual (16-bit integers times POINT:SCALE, or floats when the scale is
// negative), followed in each frame by the analog samples of that frame, which are skipped. The
// header, parameters and data are in the number format of the processor type (84 Intel, 85 DEC,
// 86 MIPS: mocap/c3d_processor.h).
//
// Where the format leaves a choice, this reader:
//  - takes the point count, the analog values per frame and the data block from the header (they
//    set the layout of the data) and warns when POINT:USED, ANALOG:USED x ANALOG:RATE / POINT:RATE
//    or POINT:DATA_START disagree;
//  - takes the scale from POINT:SCALE (the header's when absent), the rate from POINT:RATE (the
//    header's when absent), the units from POINT:UNITS (mm | cm | m; absent or unknown: mm, with
//    a warning, marked as not declared);
//  - counts frames from the header's first and last frame, or from TRIAL:ACTUAL_START_FIELD and
//    TRIAL:ACTUAL_END_FIELD (two 16-bit words each, low word first) when present, because the
//    header's 16-bit words stop at 65535; POINT:FRAMES is only compared;
//  - reads the complete frames of a data section shorter than declared, with a warning (as the
//    text readers do with a truncated export), and fails when not even one frame is there;
//  - takes a point as missing when its residual word is negative (the C3D rule: -1 in integer
//    files, a negative float in float files), when a coordinate is not finite, and also when x,
//    y and z are all exactly 0 with a valid residual: ezc3d keeps such points, but some writers
//    mark gaps that way, a marker exactly at the origin is implausible, and the Qualisys TSV
//    reader here makes the same choice; a warning counts them;
//  - names the points from POINT:LABELS, LABELS2, LABELS3, ... (trailing spaces removed, names
//    in a Windows code page read as Windows-1252); empty labels become "point N" and repeated
//    ones get " (2)", " (3)", ..., with a warning;
//  - takes the up axis from POINT:Y_SCREEN (the axis drawn upwards on screen: '+Z' for Vicon,
//    '+Y' for y-up writers) when present, else leaves it unknown (0: detected from the data).
// Bad input fails with a message naming the byte or the parameter; allocations are bounded by
// the file's size, whatever its counts say.
#pragma once

#include "mocap/recording.h"
#include "base/result.h"

#include <string_view>

namespace tela {

// Whether the bytes start like a C3D file: at least 512 bytes, byte 1 the key 0x50 and byte 0
// (the parameter section's block) at least 2. The same rule as the page's web/src/io/sniff.js.
bool looks_like_c3d(std::string_view bytes);

// Parses a C3D file into a Recording (format "c3d", metres, the file's axes; up_axis from
// POINT:Y_SCREEN or 0).
Result<Recording> parse_c3d(std::string_view bytes);

}  // namespace tela
