#include "FigureSize.h"

#include <QGuiApplication>
#include <QRegularExpression>
#include <QScreen>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

double FigureSize::unitsPerInch()
{
    // QCustomPlot measures text with QFontMetrics of the screen while laying out, whatever it
    // draws on; every output is drawn at the same resolution so that the layout fits the text.
    const QScreen *screen = QGuiApplication::primaryScreen();
    return screen ? std::round(screen->logicalDotsPerInchX()) : 96.0;
}

FigureSize FigureSize::fromPixels(QSize pixels)
{
    return {pixels, 1.0, std::nullopt};
}

FigureSize FigureSize::fromInches(QSizeF inches, double dpi)
{
    const double unit = unitsPerInch();
    const QSize layout(std::max(1, qRound(inches.width() * unit)), std::max(1, qRound(inches.height() * unit)));
    return {layout, dpi / unit, dpi};
}

FigureSize FigureSize::fromPixelsAtDpi(QSize pixels, double dpi)
{
    return fromInches(QSizeF(pixels.width() / dpi, pixels.height() / dpi), dpi);
}

QSize FigureSize::pixels() const
{
    // As QCustomPlot::toPixmap rounds.
    return {qRound(layout.width() * scale), qRound(layout.height() * scale)};
}

QSizeF FigureSize::points() const
{
    const double perUnit = 72.0 / unitsPerInch();
    return {layout.width() * perUnit, layout.height() * perUnit};
}

namespace FigureSizes {

namespace {

// How tall a journal's figure may be (FigureSizes::named()).
constexpr double kMostPageCm = 22.0;

} // namespace

const QList<Named> &named()
{
    static const QList<Named> sizes {
        {u"slide"_s, QSizeF(25.4, 14.2875)},
        {u"column"_s, QSizeF(8.5, 6.0), kMostPageCm},
        {u"double"_s, QSizeF(17.5, 9.0), kMostPageCm},
    };
    return sizes;
}

QStringList names()
{
    QStringList list;
    for (const Named &size : named())
        list.append(size.name);
    return list;
}

std::variant<QSizeF, QString> parsePhysical(const QString &text)
{
    for (const Named &size : named()) {
        if (size.name == text)
            return size.cm / 2.54;
    }
    static const QRegularExpression form(
        uR"(^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*[xX×]\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(cm|mm|in)\s*$)"_s);
    const QRegularExpressionMatch match = form.match(text);
    if (!match.hasMatch())
        return u"must be %1, or WIDTHxHEIGHT with a unit cm, mm or in, each side between 0.25 in (0.635 cm) "
               "and 100 in (254 cm), e.g. 8.5x6cm or 3.5x2.5in; got '%2'"_s.arg(names().join(u", "_s), text);
    const QString unit = match.captured(3);
    const double perInch = unit == u"in"_s ? 1.0 : unit == u"cm"_s ? 2.54 : 25.4;
    const QSizeF inches(match.captured(1).toDouble() / perInch, match.captured(2).toDouble() / perInch);
    // From a postage stamp to a poster.
    constexpr double kMin = 0.25, kMax = 100.0;
    if (inches.width() < kMin || inches.height() < kMin || inches.width() > kMax || inches.height() > kMax)
        return u"each side must be between 0.25 in (0.635 cm) and 100 in (254 cm); got '%1'"_s.arg(text);
    return inches;
}

std::variant<FigureSize, QString> page(const QString &text, double dpi)
{
    const auto inches = parsePhysical(text);
    if (const auto *error = std::get_if<QString>(&inches))
        return *error;
    FigureSize size = FigureSize::fromInches(std::get<QSizeF>(inches), dpi);
    for (const Named &named : FigureSizes::named())
        if (named.name == text && named.mostCm > named.cm.height())
            size.mostHeight = qRound(named.mostCm / 2.54 * FigureSize::unitsPerInch());
    return size;
}

std::optional<FigureSize> grownForPanels(const FigureSize &size,
                                         const std::function<std::optional<PanelsOnPage>(const FigureSize &)> &weigh)
{
    PanelGrowth growth(size);
    while (const auto page = growth.next()) {
        const auto drawn = weigh(*page);
        if (!drawn)
            return std::nullopt;
        growth.weighed(*drawn);
    }
    return growth.size();
}

PanelGrowth::PanelGrowth(const FigureSize &size)
    : m_asked(size)
    , m_chosen(size)
{ }

FigureSize PanelGrowth::taller(int n) const
{
    const double step = kGrowStepCm / 2.54 * FigureSize::unitsPerInch();
    FigureSize page = m_asked;
    page.layout.setHeight(n > 0 ? std::min(m_asked.mostHeight, m_asked.layout.height() + qRound(n * step))
                                : m_asked.mostHeight);
    page.stacked = true;
    return page;
}

std::optional<FigureSize> PanelGrowth::next() const
{
    switch (m_trial) {
    case Trial::Asked:
        return m_asked;
    case Trial::Tallest:
        return taller(0);
    case Trial::Step:
        return taller(m_step);
    case Trial::Done:
        break;
    }
    return std::nullopt;
}

void PanelGrowth::weighed(const PanelsOnPage &drawn)
{
    switch (m_trial) {
    case Trial::Asked:
        // The tallest page next: a figure it does not draw whole (dropout-compare's two rows of five at
        // a column) no lower page draws either, so the page stays as asked after one trial, not one a step.
        m_trial = drawn.leftOut == 0 || m_asked.mostHeight <= m_asked.layout.height() ? Trial::Done : Trial::Tallest;
        return;
    case Trial::Tallest:
        m_trial = drawn.leftOut != 0 || !drawn.fits ? Trial::Done : Trial::Step;
        m_step = 1;
        return;
    case Trial::Step: {
        const FigureSize page = taller(m_step);
        if (drawn.leftOut == 0 && drawn.fits) {
            m_chosen = page;
            m_trial = Trial::Done;
        } else if (page.layout.height() >= m_asked.mostHeight) {
            m_chosen = taller(0);
            m_trial = Trial::Done;
        } else {
            ++m_step;
        }
        return;
    }
    case Trial::Done:
        return;
    }
}

} // namespace FigureSizes

} // namespace posenc
