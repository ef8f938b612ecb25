#pragma once

#include "support/BucketTie.h"
#include "support/DebertaReference.h"
#include "support/T5Reference.h"

#include "core/Block.h"

#include <QByteArray>
#include <QFile>
#include <QList>

#include <cstdlib>
#include <map>
#include <optional>
#include <tuple>

// Bucket tables written from torch's own buckets (tests/data/buckets/torch_buckets.csv, whose path a test
// gives as POSENC_TORCH_BUCKETS) and float64's where no rounding boundary is near: tst_tablecheckrelative's and
// tst_tablecheckheldvalues'.
namespace torchbuckets {

using posenc::RowMatrixXf;

// torch's buckets by (family, buckets, reach, bidirectional) and relative position.
using TorchKey = std::tuple<QByteArray, std::int64_t, std::int64_t, bool>;
inline const std::map<TorchKey, std::map<std::int64_t, std::int64_t>> &torchBuckets()
{
    static const auto buckets = [] {
        std::map<TorchKey, std::map<std::int64_t, std::int64_t>> out;
        QFile file(QStringLiteral(POSENC_TORCH_BUCKETS));
        if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
            return out;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine().trimmed();
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            const QList<QByteArray> f = line.split(',');
            out[{f[0], f[1].toLongLong(), f[2].toLongLong(), f[3] == "1"}][f[4].toLongLong()] = f[5].toLongLong();
        }
        return out;
    }();
    return buckets;
}

// A rows x rows table of buckets: torch's own where the fixture holds the relative position (every
// |relative| <= 300, and each distance whose float64 logarithm is near a rounding boundary), else
// float64's; with `torch`, only torch's. Nothing where neither knows a cell.
inline std::optional<RowMatrixXf> bucketTable(const QByteArray &family, std::int64_t buckets, std::int64_t reach,
                                              bool bidirectional, std::int64_t rows, bool torch = false)
{
    const auto &fixture = torchBuckets();
    const auto known = fixture.find({family, buckets, reach, bidirectional});
    if (known == fixture.end())
        return std::nullopt;
    // A bucket of one relative position, by the offset j - i it is of.
    std::map<std::int64_t, float> byOffset;
    for (std::int64_t offset = -(rows - 1); offset < rows; ++offset) {
        // T5's relative is key - query, DeBERTa's query - key.
        const std::int64_t relative = family == "t5" ? offset : -offset;
        if (const auto it = known->second.find(relative); it != known->second.end()) {
            byOffset[offset] = float(it->second);
            continue;
        }
        const buckettie::Bucket b = family == "t5" ? t5ref::t5(relative, buckets, reach, bidirectional)
                                                   : debertaref::deberta(relative, buckets, reach);
        // T5's distances from max_distance on are all in the last bucket, whatever the logarithm.
        const bool capped = family == "t5" && std::abs(relative) >= reach;
        if (torch || (b.nearTie && !capped))
            return std::nullopt;
        byOffset[offset] = float(b.value);
    }
    RowMatrixXf t(rows, rows);
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < rows; ++j)
            t(i, j) = byOffset.at(j - i);
    return t;
}

} // namespace torchbuckets
