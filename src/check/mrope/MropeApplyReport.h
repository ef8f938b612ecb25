#pragma once

#include "check/mrope/MropeApplyCheck.h"
#include "check/rope/ApplyReport.h"

// posenc check --apply X Y --encoding mrope: M-RoPE's share of the report (MropeApplyCheck.h):
// the split, the ids by runs of rows, the prompt; in --json every row's ids.
namespace posenc::MropeApplyReport {

ApplyReport::Family family(const MropeApplyCheck::Result &r);

} // namespace posenc::MropeApplyReport
