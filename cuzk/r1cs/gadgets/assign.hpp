// CUZK_ASSIGN_OR_RETURN(decl, expr): evaluates a Result<T> expression, returns its Status from the
// enclosing function on error, otherwise declares |decl| with the value. Used by every gadget.
#pragma once

#include "cuzk/base/status.hpp"

#define CUZK_GADGET_CAT2(a, b) a##b
#define CUZK_GADGET_CAT(a, b) CUZK_GADGET_CAT2(a, b)
#define CUZK_ASSIGN_OR_RETURN(decl, expr)                    \
  auto CUZK_GADGET_CAT(cuzk_result_, __LINE__) = (expr);     \
  if (!CUZK_GADGET_CAT(cuzk_result_, __LINE__).ok())         \
    return CUZK_GADGET_CAT(cuzk_result_, __LINE__).status(); \
  decl = std::move(CUZK_GADGET_CAT(cuzk_result_, __LINE__)).value()
