// Errors at the boundaries of cuzk: a closed enum of error kinds, a Status that carries one with a
// message naming the defect, and Result<T>, a value or a Status. Arithmetic never returns these;
// decoding, I/O, verification and device calls do (STYLE.md rule 3).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace cuzk {

/// Kinds of failure; one meaning per value.
enum class Errc {
  ok = 0,
  bad_encoding,      ///< flag bits, lengths or characters that the format does not allow
  not_on_curve,      ///< coordinates do not satisfy the curve equation
  not_in_subgroup,   ///< point on the curve but outside the prime-order subgroup
  out_of_range,      ///< an integer (coordinate, scalar, index) not below its bound
  size_mismatch,     ///< sizes that disagree (file section, vector lengths, public inputs)
  truncated,         ///< input ended before the format said it would
  unsatisfied,       ///< a constraint system is not satisfied by the witness
  invalid_argument,  ///< an argument outside what the function accepts
  io_error,          ///< the operating system refused a read or write
  out_of_memory,     ///< a reservation could not be met
  device_failure,    ///< a GPU call failed
  cancelled,         ///< the work was cancelled
  not_found,         ///< a named thing (job, key, circuit) does not exist
  unimplemented,     ///< a feature the request needs is not built
};

/// The name of an error kind, for messages.
constexpr std::string_view errc_name(Errc e) {
  switch (e) {
    case Errc::ok:
      return "ok";
    case Errc::bad_encoding:
      return "bad_encoding";
    case Errc::not_on_curve:
      return "not_on_curve";
    case Errc::not_in_subgroup:
      return "not_in_subgroup";
    case Errc::out_of_range:
      return "out_of_range";
    case Errc::size_mismatch:
      return "size_mismatch";
    case Errc::truncated:
      return "truncated";
    case Errc::unsatisfied:
      return "unsatisfied";
    case Errc::invalid_argument:
      return "invalid_argument";
    case Errc::io_error:
      return "io_error";
    case Errc::out_of_memory:
      return "out_of_memory";
    case Errc::device_failure:
      return "device_failure";
    case Errc::cancelled:
      return "cancelled";
    case Errc::not_found:
      return "not_found";
    case Errc::unimplemented:
      return "unimplemented";
  }
  return "unknown";
}

/// An error kind and a message that names what is wrong; ok() when code == Errc::ok.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Errc code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status ok_status() { return {}; }
  bool ok() const { return code_ == Errc::ok; }
  Errc code() const { return code_; }
  const std::string& message() const { return message_; }
  /// "not_on_curve: G1 point 3 of section ic" style text.
  std::string to_string() const {
    return ok() ? std::string("ok") : std::string(errc_name(code_)) + ": " + message_;
  }
  /// Prefixes context ("reading file.params: ") to the message, keeping the code.
  Status with_context(std::string_view ctx) const {
    if (ok()) return *this;
    return Status(code_, std::string(ctx) + ": " + message_);
  }

 private:
  Errc code_ = Errc::ok;
  std::string message_;
};

/// A value of type T or an error Status.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Status s) : v_(std::move(s)) {}     // NOLINT(google-explicit-constructor)
  Result(Errc code, std::string message) : v_(Status(code, std::move(message))) {}
  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  /// The error; an ok Status when a value is held.
  Status status() const { return ok() ? Status() : std::get<Status>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace cuzk

/// Returns the Status of |expr| from the enclosing function when it is an error.
#define CUZK_RETURN_IF_ERROR(expr)               \
  do {                                           \
    ::cuzk::Status cuzk_status_ = (expr);        \
    if (!cuzk_status_.ok()) return cuzk_status_; \
  } while (0)
