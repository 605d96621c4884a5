// `cuzk demo`: the main job on an embedded default. For now it times the core arithmetic
// (field, curve, pairing) and checks the pairing's bilinearity, printing a short report.
#pragma once

namespace cuzk {

/// Runs the demo; returns the process exit code (0 when every check passed).
int run_demo();

}  // namespace cuzk
