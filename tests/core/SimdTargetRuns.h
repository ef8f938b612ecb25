#pragma once

// A computation run once on every SIMD target compiled into posenc that this CPU can run, the
// targets' names, and NaN-filled tables, so that a cell a kernel forgot to write shows.
#include "core/Block.h"
#include "core/SimdTargets.h"

#include <QDebug>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <functional>
#include <limits>
#include <vector>

namespace testing {

// Runs `compute` once on every target and returns the results, the first on the best target.
template<typename Result> std::vector<Result> onEveryTarget(const std::function<Result()> &compute)
{
    namespace SimdTargets = posenc::SimdTargets;
    std::vector<Result> results;
    for (const SimdTargets::Target &target : SimdTargets::available()) {
        SimdTargets::select(target.id);
        if (SimdTargets::current().id != target.id)
            qFatal("the kernels did not switch to the %s target", target.name);
        results.push_back(compute());
    }
    SimdTargets::select(0);
    return results;
}

// The targets a test covers, named in its output; false when there is none.
inline bool nameTheTargets()
{
    namespace SimdTargets = posenc::SimdTargets;
    QStringList names;
    for (const SimdTargets::Target &target : SimdTargets::available())
        names << QString::fromLatin1(target.name);
    qInfo().noquote() << "SIMD targets covered:" << names.join(u' ') << "(the kernels run on"
                      << SimdTargets::current().name << "by default)";
    return !names.isEmpty();
}

inline QString targetName(std::size_t index)
{
    return QString::fromLatin1(posenc::SimdTargets::available()[index].name);
}

inline posenc::RowMatrixXf nanTable(std::int64_t rows, std::int64_t cols)
{
    posenc::RowMatrixXf table(rows, cols);
    table.setConstant(std::numeric_limits<float>::quiet_NaN());
    return table;
}

} // namespace testing
