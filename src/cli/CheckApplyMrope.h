#pragma once

#include "CheckApplyReport.h"

#include "check/mrope/MropeApplyCheck.h"

// posenc check --apply X Y --encoding mrope: M-RoPE's share of the report
// (core/mrope/MropeApplyCheck.h): the split, the ids by runs of rows, the prompt; in --json every
// row's ids.
namespace posenc::CheckApplyMrope {

CheckApplyReport::Family family(const MropeApplyCheck::Result &r);

} // namespace posenc::CheckApplyMrope
