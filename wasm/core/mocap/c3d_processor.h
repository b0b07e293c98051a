// The three number formats of C3D files, named by the processor that wrote them (the fourth
// byte of the parameter section): 84 Intel (little-endian 16-bit words, IEEE floats), 85 DEC
// (little-endian words, VAX F-floats), 86 MIPS (big-endian words, IEEE floats). The header, the
// parameters and the data of a file all use its one format.
#pragma once

#include <cstdint>
#include <string>

namespace tela {

enum class C3dProcessor : int { intel = 84, dec = 85, mips = 86 };

// "Intel", "DEC", "MIPS"
const char* to_string(C3dProcessor processor);

// The processor of a parameter-section byte, or false when it is none of 84, 85, 86.
bool c3d_processor_from_byte(int byte, C3dProcessor& processor);

// Reads a 16-bit word at p (2 bytes) / a 32-bit float at p (4 bytes). The caller checks bounds.
// A DEC F-float is returned exactly (it can be a value no IEEE float holds); its reserved
// operand (sign set, exponent 0) reads as NaN.
std::uint16_t read_c3d_word(const unsigned char* p, C3dProcessor processor);
double read_c3d_float(const unsigned char* p, C3dProcessor processor);

// Appends a 16-bit word / a float (rounded to the format; |v| above the largest finite value of
// the format becomes the largest) to out.
void append_c3d_word(std::string& out, std::uint16_t word, C3dProcessor processor);
void append_c3d_float(std::string& out, double value, C3dProcessor processor);

}  // namespace tela
