#include "TokenRoles.h"

#include "SwatchLegend.h"

#include "data/FigureText.h"

#include "core/TitleText.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kOutline(20, 20, 20);

// Names at role rows, leaving out a name whose label would touch one already placed (first
// come, first placed: [CLS], [SEP], then the [MASK]s), so that labels never overlap.
class RoleTicker final : public QCPAxisTickerText
{
public:
    RoleTicker(QCPAxis *axis, QList<TokenRole> roles)
        : m_axis(axis)
        , m_roles(std::move(roles))
    {
        for (const TokenRole &role : m_roles)
            addTick(static_cast<double>(role.position), role.name);
    }

protected:
    QVector<double> createTickVector(double, const QCPRange &range) override
    {
        const double room = QFontMetricsF(m_axis->tickLabelFont()).height();
        QVector<double> placed;
        for (const TokenRole &role : m_roles) {
            const double at = static_cast<double>(role.position);
            if (!range.contains(at))
                continue;
            const bool touches = std::any_of(placed.cbegin(), placed.cend(), [&](double other) {
                return std::abs(m_axis->coordToPixel(at) - m_axis->coordToPixel(other)) < room;
            });
            if (!touches)
                placed.append(at);
        }
        std::sort(placed.begin(), placed.end());
        return placed;
    }

private:
    QCPAxis *m_axis;
    QList<TokenRole> m_roles;
};

// A rectangle across the whole width of `rect`, its rows set by TokenRoleMarks::fitToView.
QCPItemRect *rowBand(QCPAxisRect *rect)
{
    auto *item = new QCPItemRect(rect->parentPlot());
    item->setClipAxisRect(rect);
    for (QCPItemPosition *corner : {item->topLeft, item->bottomRight}) {
        corner->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        corner->setAxisRect(rect);
        corner->setTypeX(QCPItemPosition::ptAxisRectRatio);
        corner->setTypeY(QCPItemPosition::ptPlotCoords);
    }
    item->setSelectable(false);
    return item;
}

} // namespace

namespace TokenRoles {

bool matter(const Params &params)
{
    return params.dropoutMode == DropoutMode::ProtectSpecial || params.dropoutMode == DropoutMode::MaskedFill;
}

QList<TokenRole> of(const Params &params)
{
    // Only the rows `special` names: a model given none has no [CLS] or [SEP] to show.
    QList<TokenRole> roles;
    for (const std::int64_t row : params.specialRows())
        roles.append({row, TitleText::specialToken(params, row)});
    return roles;
}

std::pair<std::int64_t, std::int64_t> padding(const Params &params)
{
    return {std::min(params.sequenceLength(), params.maxLen), params.maxLen};
}

QString text(const Params &params)
{
    QStringList parts;
    const QList<TokenRole> roles = of(params);
    if (roles.isEmpty())
        parts.append(u"no special token"_s);
    for (const TokenRole &role : roles)
        parts.append(u"%1 at %2"_s.arg(role.name, FigureText::formatCount(role.position)));
    const auto [first, end] = padding(params);
    if (first < end) {
        const QString rows = end - first == 1
            ? FigureText::formatCount(first)
            : u"%1–%2"_s.arg(FigureText::formatCount(first), FigureText::formatCount(end - 1));
        parts.append(u"padding %1 (hatched, seq_len %2)"_s.arg(rows, FigureText::formatCount(params.sequenceLength())));
    } else {
        parts.append(u"no padding (seq_len = L)"_s);
    }
    return parts.join(u", "_s);
}

} // namespace TokenRoles

TokenRoleMarks::TokenRoleMarks(QCPAxisRect *rect)
    : m_rect(rect)
{
    QCPAxis *left = m_rect->axis(QCPAxis::atLeft);
    QCPAxis *names = m_rect->axis(QCPAxis::atRight);
    names->setRangeReversed(left->rangeReversed());
    names->setRange(left->range());
    names->setTickLength(0, 3);
    names->setSubTicks(false);
    names->grid()->setVisible(false);
    QFont font = left->tickLabelFont();
    font.setBold(true);
    names->setTickLabelFont(font);
    QObject::connect(left, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), names,
                     qOverload<const QCPRange &>(&QCPAxis::setRange));
    m_followRows = QObject::connect(left, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), left,
                                    [this](const QCPRange &rows) { fitToView(rows); });
}

TokenRoleMarks::~TokenRoleMarks()
{
    QObject::disconnect(m_followRows);
}

void TokenRoleMarks::clear()
{
    QCustomPlot *plot = m_rect->parentPlot();
    for (const RowMark &mark : std::as_const(m_marks))
        plot->removeItem(mark.item);
    m_marks.clear();
}

void TokenRoleMarks::addMark(QCPItemRect *item, double lower, double upper)
{
    m_marks.append({item, lower, upper});
}

void TokenRoleMarks::fitToView(const QCPRange &rows)
{
    for (const RowMark &mark : std::as_const(m_marks)) {
        const double lower = std::max(mark.lower, rows.lower);
        const double upper = std::min(mark.upper, rows.upper);
        mark.item->setVisible(lower < upper);
        mark.item->topLeft->setCoords(0.0, lower < upper ? lower : mark.lower);
        mark.item->bottomRight->setCoords(1.0, lower < upper ? upper : mark.upper);
    }
}

void TokenRoleMarks::update(const Params &params, bool named)
{
    clear();
    if (!TokenRoles::matter(params))
        return;
    const QList<TokenRole> roles = TokenRoles::of(params);
    for (const TokenRole &role : roles) {
        QCPItemRect *outline = rowBand(m_rect);
        outline->setPen(QPen(kOutline, 1.2));
        outline->setBrush(Qt::NoBrush);
        const auto row = static_cast<double>(role.position);
        addMark(outline, row - 0.5, row + 0.5);
    }
    const auto [first, end] = TokenRoles::padding(params);
    if (first < end) {
        for (const QBrush &brush : {QBrush(SwatchLegend::washColor()), SwatchLegend::hatchBrush()}) {
            QCPItemRect *band = rowBand(m_rect);
            band->setPen(Qt::NoPen);
            band->setBrush(brush);
            addMark(band, static_cast<double>(first) - 0.5, static_cast<double>(end) - 0.5);
        }
    }
    fitToView(m_rect->axis(QCPAxis::atLeft)->range());
    // The padding named a row into its band, after the roles: it yields to [SEP] where rows are thin.
    QList<TokenRole> labels = roles;
    if (first < end)
        labels.append({std::min(first + 1, end - 1), u"padding"_s});
    QCPAxis *names = m_rect->axis(QCPAxis::atRight);
    names->setVisible(named);
    names->setTicker(QSharedPointer<RoleTicker>::create(names, labels));
}

} // namespace posenc
