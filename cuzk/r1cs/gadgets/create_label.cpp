#include "cuzk/r1cs/gadgets/create_label.hpp"

#include <algorithm>
#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "cuzk/r1cs/gadgets/reverse_bit_numbering.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

namespace cuzk {

Result<AllocatedNum> create_label_circuit(ConstraintSystem& cs, std::span<const Boolean> replica_id,
                                          std::span<const std::vector<Boolean>> parents,
                                          const UInt32& layer, const UInt64& node) {
  if (replica_id.size() < 32 || replica_id.size() > 256)
    return Status(
        Errc::invalid_argument,
        "create_label: replica_id has " + std::to_string(replica_id.size()) + " bits, not 32..256");
  if (parents.size() != kLabelParents)
    return Status(Errc::invalid_argument, "create_label: " + std::to_string(parents.size()) +
                                              " parents, not " + std::to_string(kLabelParents));
  for (std::size_t i = 0; i < parents.size(); ++i) {
    if (parents[i].size() > 256)
      return Status(Errc::invalid_argument,
                    "create_label: parent " + std::to_string(i) + " has more than 256 bits");
  }
  const Boolean zero = Boolean::constant(false);
  std::vector<Boolean> message(replica_id.begin(), replica_id.end());
  message.reserve((2 + kLabelParents) * 256);
  message.resize(256, zero);
  const std::vector<Boolean> layer_bits = layer.into_bits_be();
  message.insert(message.end(), layer_bits.begin(), layer_bits.end());
  const std::vector<Boolean> node_bits = node.to_bits_be();
  message.insert(message.end(), node_bits.begin(), node_bits.end());
  message.resize(512, zero);
  for (const std::vector<Boolean>& parent : parents) {
    message.insert(message.end(), parent.begin(), parent.end());
    message.resize((message.size() + 255) / 256 * 256, zero);
  }

  Result<std::vector<Boolean>> digest = Status();
  {
    Namespace ns(cs, "hash");
    digest = sha256(cs, message);
  }
  if (!digest) return digest.status();
  const std::vector<Boolean> le = reverse_bit_numbering(std::move(*digest));
  Namespace ns(cs, "result_num");
  return pack_bits(cs, std::span<const Boolean>(le).first(kFrCapacity));
}

std::array<std::uint8_t, 32> create_label_native(
    std::span<const std::uint8_t, 32> replica_id, std::uint32_t layer, std::uint64_t node,
    std::span<const std::array<std::uint8_t, 32>> parents) {
  std::vector<std::uint8_t> msg(64, 0);
  std::copy(replica_id.begin(), replica_id.end(), msg.begin());
  for (int i = 0; i < 4; ++i) msg[32 + i] = static_cast<std::uint8_t>(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) msg[36 + i] = static_cast<std::uint8_t>(node >> (56 - 8 * i));
  for (const auto& p : parents) msg.insert(msg.end(), p.begin(), p.end());
  std::array<std::uint8_t, 32> d = sha256_native(msg);
  d[31] &= 0x3f;
  return d;
}

}  // namespace cuzk
