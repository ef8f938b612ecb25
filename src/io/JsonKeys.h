#pragma once

#include <QByteArrayView>
#include <QString>

#include "io/TensorInfo.h"

namespace posenc {

// What a scan of a safetensors header's raw bytes found. Qt's JSON parser keeps only the last of
// repeated keys, reads 24.0 as the integer 24, and builds a DOM of ~16 bytes per value; this scan
// runs first, over the bytes, and catches what the DOM would hide or cost.
struct HeaderScan
{
    enum class Verdict {
        Clean, // nothing wrong found; the JSON may still be invalid, which Qt's parser reports
        Refused, // `reason` says what is wrong
        Unverifiable, // the scan lost its way: valid JSON that it cannot follow must be refused
    };
    Verdict verdict = Verdict::Clean;
    QString reason;
};

// Scans the object of tensor entries for a repeated name, a repeated key inside an entry or
// '__metadata__', a shape or data offset not written as an integer (24.0, 2.4e1), and a shape
// of more than kMaxRank dimensions.
HeaderScan scanSafetensorsHeader(QByteArrayView json);

} // namespace posenc
