#pragma once

#include "core/mrope/MropeApplyCheck.h"

#include <QString>
#include <QStringList>

// posenc check --apply X Y --encoding mrope: M-RoPE's report (core/mrope/MropeApplyCheck.h).
namespace posenc::CheckApplyMrope {

// The report's lines: the verdict, the pairing, the split, the ids by runs of rows, the cells.
QStringList lines(const MropeApplyCheck::Result &r);
// One JSON object, every row's ids among its keys.
QString json(const MropeApplyCheck::Result &r);

} // namespace posenc::CheckApplyMrope
