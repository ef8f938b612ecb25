#pragma once

#include "core/Params.h"

#include <QString>
#include <QStringList>

// A RoPE reading against a declared one of the same rope_type (docs/ARCHITECTURE.md, Checking a
// table, "A declared reference"): the scaling's parameters besides rope_theta and the factor that
// differ, each named with both values (an inv_freq vector's, RopeInvFreq::expect).
namespace posenc::RopeScalingDifferences {

inline const QString kOriginalMaxLen = QStringLiteral("original-max-len");
inline const QString kLowFreqFactor = QStringLiteral("low-freq-factor");
inline const QString kHighFreqFactor = QStringLiteral("high-freq-factor");

// The sentences, one per parameter that differs, their ids appended to `ids`: the original length
// the scaling's bands are placed by, where the type takes one, and llama3's two band factors.
QStringList said(const Params &found, const Params &declared, QStringList &ids);

} // namespace posenc::RopeScalingDifferences
