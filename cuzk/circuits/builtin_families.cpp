#include "cuzk/circuits/builtin_families.hpp"

#include "cuzk/circuits/bench/bench_family.hpp"
#include "cuzk/circuits/circom/circom_family.hpp"
#include "cuzk/circuits/filecoin/porep_family.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/circuits/filecoin/update_family.hpp"

namespace cuzk::circuits {

Result<std::shared_ptr<Registry>> builtin_families(const FamilyOptions& opt, ThreadPool* pool) {
  if (opt.default_partitions == 0 || opt.default_partitions > 64)
    return Status(Errc::out_of_range, "default_partitions must be 1..64");
  auto r = std::make_shared<Registry>();
  // circom ids first: a registered id shadows a bench-<K> name, as before families.
  CUZK_RETURN_IF_ERROR(r->add(
      std::make_shared<CircomFamily>(CircomFamilyOptions{.circuits = opt.circom, .pool = pool})));
  CUZK_RETURN_IF_ERROR(r->add(
      std::make_shared<BenchFamily>(BenchFamilyOptions{.cache_dir = opt.cache_dir,
                                                       .default_partitions = opt.default_partitions,
                                                       .structure_seed = opt.structure_seed,
                                                       .key_seed = opt.key_seed})));
  // The Filecoin proof kinds; their recorded matrices are cached beside the bench ones.
  const filecoin::FilecoinFamilyOptions fil{.params_dir = opt.filecoin_params_dir,
                                            .cache_dir = opt.cache_dir};
  CUZK_RETURN_IF_ERROR(r->add(std::make_shared<filecoin::PorepFamily>(fil)));
  CUZK_RETURN_IF_ERROR(
      r->add(std::make_shared<filecoin::PostFamily>(cuzk::filecoin::PostKind::winning, fil)));
  CUZK_RETURN_IF_ERROR(
      r->add(std::make_shared<filecoin::PostFamily>(cuzk::filecoin::PostKind::window, fil)));
  CUZK_RETURN_IF_ERROR(r->add(std::make_shared<filecoin::UpdateFamily>(fil)));
  return r;
}

}  // namespace cuzk::circuits
