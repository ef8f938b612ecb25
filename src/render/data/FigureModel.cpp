#include "FigureModel.h"

#include "ViewOptions.h"

#include <algorithm>

#include "core/FamilySpec.h"

#include "core/MemoryBudget.h"
#include "core/ParamText.h"
#include "core/TableAllocation.h"

#include <QCoreApplication>
#include <QThread>

#include <cmath>
#include <new>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {
std::atomic<std::int64_t> g_computations {0};
std::atomic<std::int64_t> g_onApplicationThread {0};
} // namespace

QSize PanelExtent::pixels() const
{
    return {std::max(1, qRound(size.width() * pixelRatio)), std::max(1, qRound(size.height() * pixelRatio))};
}

QList<PanelExtent> FigureModel::extentsRead(const QList<PanelExtent> &panels) const
{
    return panels;
}

QList<PanelExtent> FigureModel::firstPanelColumns(const QList<PanelExtent> &panels)
{
    if (panels.isEmpty())
        return {};
    PanelExtent columns;
    columns.size = QSize(panels.front().size.width(), 0);
    columns.pixelRatio = panels.front().pixelRatio;
    columns.x = panels.front().x;
    return {columns};
}

FigureData::~FigureData() = default;

FigureModel::~FigureModel() = default;

QStringList FigureModel::reads(const FigureState &state) const
{
    QStringList keys;
    for (const Quantity q : inputs(state)) {
        for (const QString &key : Quantities::spec(q).reads) {
            if (!keys.contains(key))
                keys.append(key);
        }
    }
    return keys;
}

FigureModel::Reading FigureModel::readingAt(const FigureState &state, const Params &) const
{
    return {inputs(state), reads(state)};
}

const FigureModel::MadeOptions &FigureModel::madeOptions() const
{
    // Made on the first thread that asks, the others waiting for it: one instance serves every thread.
    std::call_once(m_optionsMade, [this] {
        const QList<FigureOption> own = ownOptions();
        m_options.choosesColormap = std::any_of(own.cbegin(), own.cend(), [](const FigureOption &o) {
            return o.key == QString::fromUtf16(ViewOptions::kColormap);
        });
        m_options.all = own;
        if (drawsColourMaps())
            m_options.all += ViewOptions::mapOptions(m_options.choosesColormap);
    });
    return m_options;
}

QList<FigureOption> FigureModel::options() const
{
    return madeOptions().all;
}

bool FigureModel::choosesColormap() const
{
    return madeOptions().choosesColormap;
}

std::optional<FigureOption> FigureModel::option(const QString &key) const
{
    for (const FigureOption &o : madeOptions().all) {
        if (o.key == key)
            return o;
    }
    return std::nullopt;
}

QString FigureModel::defaultText(const QString &key, const Params &) const
{
    const auto known = option(key);
    return known ? known->defaultText : QString();
}

QList<ParamError> FigureModel::check(const Params &params, const FigureState &state) const
{
    QList<ParamError> problems;
    QStringList keys;
    for (const FigureOption &o : madeOptions().all)
        keys.append(o.key);
    for (auto it = state.options.cbegin(); it != state.options.cend(); ++it) {
        const auto known = option(it.key());
        if (!known) {
            const QString its = keys.isEmpty() ? u"it takes none"_s : u"its options: %1"_s.arg(keys.join(u", "_s));
            problems.append(
                {it.key(), QString(), u"is not an option of the %1 figure (%2)"_s.arg(name(), its), std::nullopt});
            continue;
        }
        if (auto refused = known->refusal(it.value()))
            problems.append(*refused);
    }
    if (!appliesTo(params)) {
        QStringList words;
        for (const Encoding family : families())
            words.append(ParamText::toString(family));
        problems.append(
            {u"encoding"_s, u"%1"_s.arg(words.size() == 1 ? words[0] : u"one of "_s + words.join(u", "_s)),
             u"is %1, which the %2 figure does not show"_s.arg(ParamText::toString(params.encoding), name()),
             std::nullopt});
    }
    if (problems.isEmpty())
        problems = checkOptions(params, state);
    return problems;
}

QList<Encoding> FigureModel::families() const
{
    QList<Encoding> all;
    for (const FamilySpec &family : Families::all())
        all.append(family.encoding);
    return all;
}

QList<ParamError> FigureModel::checkOptions(const Params &, const FigureState &) const
{
    return {};
}

bool FigureModel::hasPreview(const FigureRequest &) const
{
    return false;
}

int FigureModel::passCount(const FigureRequest &) const
{
    return 1;
}

FigureResult FigureModel::compute(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    ++g_computations;
    if (const QCoreApplication *app = QCoreApplication::instance(); app && QThread::currentThread() == app->thread())
        ++g_onApplicationThread;
    // Memory the budget allowed but the system would not give (a busy machine, a process limit)
    // refuses the figure as the budget would: a worker thread must not end the program.
    try {
        return computeData(request, cancel);
    } catch (const TableAllocationFailed &failed) {
        return {nullptr, u"%1: %2"_s.arg(name(), failed.message())};
    } catch (const std::bad_alloc &) {
        return {nullptr,
                u"%1: the system could not give the memory asked for; this machine has %2 of memory, and not all "
                "of it free"_s.arg(name(), MemoryBudget::formatGiB(MemoryBudget::physicalMemory()))};
    }
}

std::optional<TableRequest> FigureModel::table(const Params &, const FigureState &) const
{
    return std::nullopt;
}

FigureModel::Computations FigureModel::computations()
{
    return {g_computations.load(), g_onApplicationThread.load()};
}

} // namespace posenc
