// A Filecoin proving key as an operator names it ([filecoin] preload, docs/config.md): by proof
// kind and sector size, "porep:32GiB" (kinds porep, winning, window, update — the --kind names of
// `cuzk filecoin`; sizes as parse_sector_size reads them), or by key id, "v28-<cache id>" (the
// .params file's stem, filecoin_key_id), or by the names Curio's Rust cuzk daemon gives its
// PreloadSRS circuit ids (REFERENCE-CUZK.md: porep-32g, porep-64g, wpost-32g, winning-32g,
// snap-32g, snap-64g), so a client written for it preloads the same keys here.
#pragma once

#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/parameter_files.hpp"

namespace cuzk::circuits::filecoin {

/// The parameter set |spec| names; invalid_argument naming the spec and what is known when it
/// names none (an unknown kind or size, a key id of no published set).
Result<cuzk::filecoin::ParameterSet> parameter_set_of_key_spec(std::string_view spec);

}  // namespace cuzk::circuits::filecoin
