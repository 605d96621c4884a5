// PCE ("pre-compiled constraint evaluation"): given the recorded matrices and a witness
// z = (inputs ‖ aux), compute a = A·z, b = B·z, c = C·z by a parallel sparse matrix–vector product,
// one entry per constraint (input constraints included). This replaces evaluating every LC during
// synthesis (the classic path) with witness-only synthesis + SpMV (DESIGN.md §2 step 1).
//
// Cost per non-zero: ±1 terms are one Fr add/sub (no multiplication, no stored value); general
// terms are one Fr mul + add. With the boolean fast path a witness value 0 costs nothing and 1
// costs only the add, so bit-heavy Filecoin witnesses (≈ 70 %+ zeros and ones) avoid most muls.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

struct PcePlan;

struct PceOptions {
  bool boolean_fast_path = true;  ///< general terms: skip value 0, add for value 1
  /// Rows of the common gadget forms (boolean, xor, mul: recognised by their three lengths and
  /// entry kinds) evaluated by straight-line code chosen once per row; off: every row through
  /// the per-matrix kind loops. Same results either way.
  bool row_shapes = true;
  /// With a plan and the boolean fast path: long rows as term lists by kind (PcePlan::big);
  /// off: through the CSR walk. Same results either way.
  bool long_terms = true;
  std::size_t min_rows_per_task = 2048;
  /// From this many constraints on, a, b, c are written with non-temporal stores: at that size
  /// they no longer fit the caches, and a normal store would first read every line it writes.
  std::size_t nt_store_min_rows = std::size_t{1} << 17;
  /// synthesize_pce: the SpMV runs on a second pool thread from this many constraints on. Below,
  /// synthesis then SpMV on the calling thread: waking the helper and waiting for it to return
  /// costs ≈ 100 µs on the development VM (measured at 2^10: 184 µs two threads, 69 µs one).
  std::size_t pipeline_min_rows = std::size_t{1} << 15;
  /// The compiled form of these matrices (pce_plan), or null: the SpMV then walks the CSR rows.
  /// Same results either way; the plan must have been built from the matrices evaluated
  /// (size_mismatch when its counts disagree).
  const PcePlan* plan = nullptr;
};

/// The SpMV's compiled form of one circuit topology, built once from the matrices (pce_plan),
/// like the matrices themselves. Within each 64-row block the rows are grouped by form, so each
/// form runs in its own loop with no per-row dispatch; results go to a small per-block buffer
/// and then to a, b, c in row order (non-temporal stores where the CSR path uses them):
///   boolean  A = [+1 p, −1 x], B = [+1 y], C = []           → z[p] − z[x], z[y], 0
///   xor      A = [2·x], B = [+1 y], C = [+1 x, +1 y, −1 w]   → z[x] + z[x], z[y], z[x] + z[y] − z[w]
///   mul      A = [+1 x], B = [+1 y], C = [+1 w]              → copies
///   linear   any other row whose sums stay below 16 r per matrix and sign (≤ 16 positive terms,
///            ≤ 16 −1 terms, a ±2^e term counting 3): rows whose parts are copies, at most three
///            ±1 terms, or ±2·w and at most three ±1 terms (SHA-256's majority rows) row by row
///            with modular adds; the others as flat per-block term lists by
///            kind, each term added without reduction into a 320-bit slot per (row, matrix, sign),
///            one reduction per output (a 64-entry table of h·2^254 mod r and one conditional
///            subtraction). A general coefficient on a column expected to hold a bit adds the
///            coefficient masked by the value (no branch, no multiplication); the value is checked
///            to be 0 or 1 on the way, and rows whose check fails are evaluated again exactly.
///            ±2^e on other columns: a shift and a Barrett step instead of a Montgomery product.
///   long     the rest: term lists by kind (|big|: ±2^e terms summed as integers, SHA-256's
///            packed additions) with the boolean fast path and long_terms, else the CSR row walk.
/// "Expected to hold a bit" is a property of the topology: a column with a boolean constraint
/// (ONE − x)·x = 0, or the output of an xor or product of such columns (pce_bit_columns). It
/// only decides which code runs: every witness value is checked where the fast code assumes it.
struct PcePlan {
  static constexpr std::size_t kMaxLinearTerms = 16;
  // What the plan was built from (checked on use).
  std::uint64_t num_constraints = 0, nnz_a = 0, nnz_b = 0, nnz_c = 0, general = 0;
  /// Per block b, the entries of each form are [off[b], off[b + 1]) of its array (words: see
  /// pce.cpp); blocks + 1 offsets per form.
  std::vector<std::uint64_t> boolean_off, xor_off, mul_off, linear_off, long_off;
  std::vector<std::uint32_t> boolean, xor_, mul, linear, long_;
  /// Linear rows with more than three terms in a matrix, as flat per-block term lists (see
  /// pce.cpp): rows, then terms by kind. The shorter ones are in |linear|, row by row.
  std::vector<std::uint64_t> lin_off, unit_off, bit_off, pow_off, gen_off;
  std::vector<std::uint32_t> lin_rows, unit, bit, pow, gen;
  /// The long rows again, as term lists by kind (used with the boolean fast path and
  /// PceOptions::long_terms; |long_| stays the CSR twin): per row [r, words, then per matrix
  /// np, nm, the ±2^e terms' counts by sign and 64-bit limb of 2^e (+0..3, −0..3), nf], then per
  /// matrix its +1 columns, −1 columns, (column, e) of its ±2^e terms and (column, coefficient
  /// index) of the others. ±2^e terms (1 ≤ e ≤ 254: SHA-256's packed additions, Σ 2^e·bit over
  /// ~1000 terms a row, 20 % of its non-zeros) are summed as integers per limb, each value checked
  /// to be 0 or 1 (Montgomery R) and its bit shifted in, no branch; a few Montgomery products
  /// per sum make it a field element. A row whose check fails is evaluated again through the CSR.
  /// Memory: 8 bytes per long-row term, beside the CSR's 4 (+4 per general term): 3.1 MB in the
  /// 32 GiB PoRep compact form's plans; a plan of its plain matrices would grow ≈ 1.1 GB.
  std::vector<std::uint64_t> big_off;
  std::vector<std::uint32_t> big;
  /// Per block, the distinct columns it reads more than kFarColumns behind the highest one it
  /// reads (inputs excepted; at most kMaxFar): [far_off[b], far_off[b + 1]) of |far|. The
  /// evaluation prefetches them a few blocks ahead; they are the reads the caches do not hold.
  static constexpr std::uint32_t kFarColumns = 8192;
  static constexpr std::size_t kMaxFar = 64;
  std::vector<std::uint64_t> far_off;
  std::vector<std::uint32_t> far;
  /// Rows per form, for statistics and tests: boolean, xor, mul, linear, long.
  std::uint64_t rows_by_form[5] = {};
  std::size_t memory_bytes() const;
};

/// Builds the plan of |m| (one pass over the rows, plus the bit-column analysis).
PcePlan pce_plan(const R1csMatrices& m);

/// Columns expected to hold 0 or 1 in a satisfying witness (one bit per column): a boolean
/// constraint (ONE − x)·x = 0 (either factor order), or w in (2x)·y = x + y − w or x·y = w with
/// x, y such columns. Two passes in row order.
std::vector<std::uint64_t> pce_bit_columns(const R1csMatrices& m);

/// a, b, c: one entry per constraint.
struct AbcVectors {
  std::vector<Fr> a, b, c;
};

/// Writes A·z, B·z, C·z into |a|, |b|, |c| (each num_constraints long), rows split over |pool| in
/// blocks of 64. |m| is only read, so one recorded R1csMatrices serves concurrent proofs.
/// size_mismatch when z has not num_columns() entries or an output has the wrong length.
Status pce_evaluate_into(ThreadPool& pool, const R1csMatrices& m, std::span<const Fr> z,
                         std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                         const PceOptions& opt = {});
/// Allocating form of pce_evaluate_into.
Result<AbcVectors> pce_evaluate(ThreadPool& pool, const R1csMatrices& m, std::span<const Fr> z,
                                const PceOptions& opt = {});

/// When each 64-row block of a circuit's matrices can be evaluated during witness synthesis: the
/// prefix maximum, over blocks 0..b, of the highest aux column (+1) and input column (+1) its rows
/// read. Built once per topology (one pass over the column words), like the matrices.
struct PceSchedule {
  std::vector<std::uint64_t> need_columns;  ///< per block: columns that must be assigned
  std::vector<std::uint64_t> need_inputs;   ///< per block: inputs (ONE included) that must be
};
PceSchedule pce_schedule(const R1csMatrices& m);

/// Fused PCE: evaluates a, b, c block by block while the witness is being synthesised, as soon
/// as the columns a block reads are assigned, so the witness values are read while still in
/// cache instead of from memory after synthesis. Attach it to a WitnessConstraintSystem
/// (WitnessOptions::stream, with num_inputs_hint = m.num_inputs); after synthesis, finish(z)
/// evaluates the rows still pending and checks sizes. One thread; the result equals
/// pce_evaluate_into's bit for bit. |m|, |s| and the outputs must outlive the stream.
///
/// Concurrent form (|concurrent| true): the witness system only publishes which blocks are ready
/// and a second thread, running run_helper(), evaluates them while synthesis goes on, so two
/// threads take about max(synthesis, SpMV) instead of their sum. The helper is a thread the caller
/// already has (synthesize_pce takes it from a ThreadPool): nothing is created per proof. Both
/// threads claim chunks of 8 ready blocks from one atomic counter; finish() publishes the rest and
/// works through it together with the helper. The helper never spins for long: after a bounded
/// spin it sleeps on a condition variable until enough blocks are pending (or finish / close).
/// Without a helper (none running, or it starts late) finish() evaluates everything itself.
/// before_grow() (the witness buffer is about to move) evaluates what is ready and waits for
/// the helper's chunk in flight; later blocks are read from the new buffer.
class PceStream {
 public:
  PceStream(const R1csMatrices& m, const PceSchedule& s, std::span<Fr> a, std::span<Fr> b,
            std::span<Fr> c, const PceOptions& opt = {}, bool concurrent = false);
  /// Calls close(); the helper (if any) must have returned from run_helper() before destruction.
  ~PceStream();
  PceStream(const PceStream&) = delete;
  PceStream& operator=(const PceStream&) = delete;
  /// Called by the witness system before its assignment's buffer may be reallocated or freed:
  /// afterwards no thread reads the old buffer.
  void before_grow();
  /// True when a witness system whose assignment starts with |input_slots| input slots can feed
  /// this stream (the matrices' num_inputs) and the shapes are consistent.
  bool accepts(std::size_t input_slots) const {
    return status_.ok() && input_slots == m_.num_inputs;
  }
  /// Called by the witness system: z[0, columns) is final except inputs ≥ |inputs|. Evaluates
  /// (concurrent: publishes) every block now ready; sets the counts at which to call again.
  void advance(const Fr* z, std::size_t columns, std::size_t inputs, std::size_t& next_columns,
               std::size_t& next_inputs);
  /// Evaluates the remaining rows from the complete witness z (num_columns() entries), with the
  /// helper's help in the concurrent form, then closes the stream. The buffer the witness system
  /// published must still be alive (take_assignment() moves it out without moving the values).
  Status finish(std::span<const Fr> z);
  /// Concurrent form: the helper thread's body. Evaluates published blocks until close() (or
  /// finish()); returns at once for a stream that is not concurrent.
  void run_helper();
  /// Stops the stream without evaluating what is left (error paths): the helper returns, and once
  /// close() returns no thread reads the witness or writes a, b, c. Idempotent.
  void close();
  /// Rows made ready during synthesis (before finish), for tests and statistics.
  std::size_t rows_streamed() const { return rows_streamed_; }
  /// Concurrent form: blocks the helper evaluated (the rest ran on the synthesising thread).
  std::size_t blocks_by_helper() const { return helper_blocks_.load(std::memory_order_relaxed); }

 private:
  bool claim(std::size_t& lo, std::size_t& hi);
  void run_claim(std::size_t lo, std::size_t hi);
  void wait_completed(std::size_t target);
  void wake_helper(bool force);

  const R1csMatrices& m_;
  const PceSchedule& s_;
  std::span<Fr> a_, b_, c_;
  PceOptions opt_;
  Status status_;
  std::size_t next_block_ = 0, blocks_ = 0, rows_streamed_ = 0;
  // Concurrent form: blocks [0, ready_) may be evaluated from z_ (z_ stored before ready_ with
  // release order); [0, claimed_) are taken by one thread or the other; completed_ counts the
  // blocks whose rows are written (release; the synthesising thread acquires it).
  bool concurrent_ = false;
  std::atomic<std::size_t> ready_{0}, claimed_{0}, completed_{0}, helper_blocks_{0};
  std::atomic<const Fr*> z_{nullptr};
  std::atomic<bool> closed_{false}, final_{false}, sleeping_{false};
  std::mutex mu_;
  std::condition_variable cv_;
};

/// Witness-only synthesis of |circuit| plus a = A·z, b = B·z, c = C·z (each num_constraints
/// long), the SpMV pipelined on a second thread of |pool| while synthesis runs (PceStream,
/// concurrent) when the pool has one and the circuit has PceOptions::pipeline_min_rows rows;
/// otherwise, or with a pool busy with another loop, synthesis then SpMV on the calling thread. |storage| is the previous proof's witness buffer
/// (capacity reused). Returns z = (inputs ‖ aux); a, b, c equal pce_evaluate_into's bit for bit.
Result<std::vector<Fr>> synthesize_pce(ThreadPool& pool, Circuit& circuit, const R1csMatrices& m,
                                       const PceSchedule& s, std::span<Fr> a, std::span<Fr> b,
                                       std::span<Fr> c, std::vector<Fr>&& storage = {},
                                       const PceOptions& opt = {});

/// Slow twin: one row at a time through for_each_term, every coefficient multiplied.
AbcVectors spmv_naive(const R1csMatrices& m, std::span<const Fr> z);

/// Witness value classes: 0 = zero, 1 = one, 2 = other (statistics; one byte per value).
void classify_witness(ThreadPool& pool, std::span<const Fr> z, std::span<std::uint8_t> out);

/// True when a[k]·b[k] = c[k] for every k; otherwise sets |first_bad| to the first failing row.
bool abc_satisfied(const AbcVectors& v, std::size_t* first_bad = nullptr);

}  // namespace cuzk
