// Escaping of untrusted text for the sinks it reaches: JSON strings (RFC 8259), single-line text
// logs (control bytes as \xNN) and Prometheus label values (text format 0.0.4: \\, \", \n).
#pragma once

#include <string>
#include <string_view>

namespace cuzk {

namespace escape_detail {
inline constexpr char kHex[] = "0123456789abcdef";
inline bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }
}  // namespace escape_detail

/// Appends |in| to |out| as the contents of a JSON string.
inline void append_json_escaped(std::string_view in, std::string& out) {
  using namespace escape_detail;
  for (char ch : in) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (is_control(c)) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
}

/// Appends |in| to |out| with control bytes (newline, NUL, ESC, DEL) as \xNN: one line stays one.
inline void append_control_escaped(std::string_view in, std::string& out) {
  using namespace escape_detail;
  for (char ch : in) {
    const auto c = static_cast<unsigned char>(ch);
    if (is_control(c)) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
}

/// |in| as a Prometheus label value (without the surrounding quotes).
inline std::string prometheus_label(std::string_view in) {
  std::string out;
  for (char ch : in) {
    if (ch == '\\' || ch == '"') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace cuzk
