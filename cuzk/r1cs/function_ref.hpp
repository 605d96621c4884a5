// FunctionRef<R(Args...)>: a non-owning reference to a callable (two words, no allocation). Used
// for the name and value closures of ConstraintSystem, which are called (or not) before the call
// that received them returns, so they never outlive the caller's lambda.
#pragma once

#include <type_traits>
#include <utility>

namespace cuzk {

template <class Sig>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  /// Refers to |f|; |f| must outlive every call through this reference.
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef> &&
                                              std::is_invocable_r_v<R, F&, Args...>>>
  FunctionRef(F&& f) noexcept  // NOLINT(google-explicit-constructor)
      : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, Args... a) -> R {
          return (*static_cast<std::add_pointer_t<std::remove_reference_t<F>>>(o))(
              std::forward<Args>(a)...);
        }) {}
  R operator()(Args... a) const { return call_(obj_, std::forward<Args>(a)...); }

 private:
  void* obj_;
  R (*call_)(void*, Args...);
};

}  // namespace cuzk
