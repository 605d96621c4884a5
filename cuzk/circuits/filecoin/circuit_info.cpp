#include "cuzk/circuits/filecoin/circuit_info.hpp"

#include "cuzk/r1cs/recording_cs.hpp"

namespace cuzk::circuits::filecoin {

Result<CircuitInfo> circuit_info(Circuit& circuit) {
  RecordingConstraintSystem cs(RecordingOptions{.with_values = false, .record_matrices = false});
  CUZK_RETURN_IF_ERROR(circuit.synthesize(cs));
  const std::uint64_t enforced = cs.num_constraints();
  CUZK_RETURN_IF_ERROR(cs.finish());
  const Recording& r = cs.recording();
  CircuitInfo info;
  info.constraints = enforced;
  info.public_inputs = r.matrices.num_inputs - 1;
  info.aux = r.matrices.num_aux;
  info.nnz_a = r.nnz_a;
  info.nnz_b = r.nnz_b;
  info.nnz_c = r.nnz_c;
  info.a_aux_density = r.matrices.a_aux_density.count();
  info.b_input_density = r.matrices.b_input_density.count();
  info.b_aux_density = r.matrices.b_aux_density.count();
  return info;
}

}  // namespace cuzk::circuits::filecoin
