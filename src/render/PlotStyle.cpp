#include "PlotStyle.h"

#include "AxesInOrder.h"
#include "FigureFonts.h"
#include "FigureRoom.h"
#include "KeepClearTicker.h"
#include "MeasuredText.h"
#include "PinnedFont.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>
#include <typeinfo>

#include <QHash>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace posenc::PlotStyle {

namespace {

// QCustomPlot's linear ticker with its numbers in one text at the axis's size: 5·10⁻¹⁴, where the
// default "gbd" format's "beautiful" powers draw the exponent at three quarters of the size asked
// for (6 pt of 9). A differences axis reaches such numbers at any preset.
// An axis makes its ticks again at every layout and every fitting round, a view's dozen a change:
// the ticker keeps the ticks of its last few ranges and levels (kKeptTickSets; QCPAxisTicker::generate
// is a function of the range, the locale, the format, the precision and its own step strategy, tick
// count and origin), and remembers its labels for the calling thread, each a QLocale::toString. It
// keeps clear (KeepsClear) as a plain ticker's stand-in does: little room may set its axis's label in
// the row of its tick labels and write its thousands short (FigureRoom), which it refused while it
// was a plain kind (S(k), sin(p·θᵢ), a T5 bucket kept their labels in a line or a column of their own).
class PowersTicker : public KeepClearTicker
{
public:
    void generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision, QVector<double> &ticks,
                  QVector<double> *subTicks, QVector<QString> *tickLabels) override
    {
        const TicksKey key {{std::bit_cast<quint64>(range.lower), std::bit_cast<quint64>(range.upper),
                             std::bit_cast<quint64>(tickOrigin())},
                            locale,
                            formatChar,
                            precision,
                            tickStepStrategy(),
                            tickCount()};
        keptOrMade(
            m_made, key,
            [&](QVector<double> &made, QVector<double> *madeSub, QVector<QString> *madeLabels) {
                QCPAxisTicker::generate(range, locale, formatChar, precision, made, madeSub, madeLabels);
            },
            ticks, subTicks, tickLabels);
        blank(ticks, tickLabels);
    }

protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override
    {
        // The number's bits, not its value: -0 and 0 are written apart.
        const LabelKey key {std::bit_cast<quint64>(tick), locale, formatChar, precision};
        thread_local QHash<LabelKey, QString> labels;
        if (const auto found = labels.constFind(key); found != labels.cend())
            return *found;
        if (labels.size() >= kMaxLabels)
            labels.clear();
        QString label = withPowers(QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision));
        labels.insert(key, label);
        return label;
    }

private:
    struct LabelKey
    {
        quint64 tick = 0;
        QLocale locale;
        QChar formatChar;
        int precision = 0;
        bool operator==(const LabelKey &) const = default;
        friend size_t qHash(const LabelKey &k, size_t seed = 0)
        {
            return qHashMulti(seed, k.tick, k.locale, k.formatChar, k.precision);
        }
    };
    static constexpr qsizetype kMaxLabels = 4096;

    struct TicksKey
    {
        std::array<quint64, 3> bits; // the range's ends and the origin, -0 apart from 0
        QLocale locale;
        QChar formatChar;
        int precision = 0;
        TickStepStrategy strategy = tssReadability;
        int count = 0;
        bool operator==(const TicksKey &) const = default;
    };
    struct Made
    {
        TicksKey key;
        QVector<double> ticks, subTicks;
        QVector<QString> labels;
    };
    QList<Made> m_made; // the last few made (kKeptTickSets), the last first
};

// Whether `ticker` is QCustomPlot's own linear ticker, not a kind derived from it.
bool isPlainTicker(const QCPAxisTicker &ticker)
{
    return typeid(ticker) == typeid(QCPAxisTicker);
}

} // namespace

QString withPowers(const QString &number)
{
    const qsizetype e = number.indexOf(u'e', 0, Qt::CaseInsensitive);
    bool ok = false;
    const int exponent = e < 0 ? 0 : number.mid(e + 1).toInt(&ok);
    if (!ok)
        return number;
    const QString mantissa = number.left(e);
    if (mantissa == u"1"_s || mantissa == u"-1"_s)
        return mantissa.chopped(1) + powerOfTen(exponent);
    return mantissa + u"·"_s + powerOfTen(exponent);
}

void preparePlot(QCustomPlot *plot)
{
    plot->setNoAntialiasingOnDrag(true);
    // Each figure puts its plottables in the legend it means; QCustomPlot would otherwise
    // adopt the first legend created as the plot's own and fill it with everything.
    plot->setAutoAddPlottableToLegend(false);
    plot->setPlottingHint(QCP::phFastPolylines, true);
    // Tick labels drawn as a file draws them, not from pixmaps cached at whole pixels: a view's
    // labels at half a device pixel would be placed otherwise than in its copy.
    plot->setPlottingHint(QCP::phCacheLabels, false);
    plot->setBackground(Qt::white);
    // Every element copies the plot's font when created: one family, the pinned one, everywhere.
    QFont font = PinnedFont::apply(plot->font());
    font.setPointSizeF(FigureFonts::kBasePointSize);
    plot->setFont(font);
}

void styleAxisRect(QCPAxisRect *rect)
{
    for (QCPAxis *axis : axesInOrder(*rect)) {
        // A figure that ticks an axis its own way installs its ticker after this.
        const QCPAxisTicker *ticker = axis->ticker().data();
        if (ticker && isPlainTicker(*ticker))
            axis->setTicker(QSharedPointer<QCPAxisTicker>(new PowersTicker));
        QFont font = axis->tickLabelFont();
        font.setPointSizeF(FigureFonts::kBasePointSize);
        axis->setTickLabelFont(font);
        QFont label = axis->labelFont();
        label.setPointSizeF(FigureFonts::kBasePointSize);
        axis->setLabelFont(label);
        axis->grid()->setPen(QPen(QColor(0, 0, 0, 30), 0, Qt::DotLine));
        axis->grid()->setSubGridVisible(false);
    }
}

bool isCompact(QSize layout)
{
    return layout.width() < 500 || layout.height() < 340;
}

double textLines(const QCustomPlot &plot)
{
    const QCPAxisRect *rect = plot.axisRectCount() > 0 ? plot.axisRect(0) : nullptr;
    const QFont font = rect ? rect->axis(QCPAxis::atBottom)->labelFont() : plot.font();
    return plot.viewport().height() / QFontMetricsF(font).lineSpacing();
}

void setCollapsibleText(QCPTextElement *element, const QString &text)
{
    element->setText(text);
    // A MeasuredTextElement's hints are none when it is empty, margins included: held at a unit's
    // height it kept its margins too (5 units and its row's spacing a caption the figure left out,
    // 1-2 % of a 6 x 4 cm page). Its sizes are then the same, empty or not, and a room step's undo
    // (FigureRoom::Changes::restore) that puts back the sizes of the text it dropped leaves the
    // text the figure set since as the figure set it.
    if (dynamic_cast<MeasuredTextElement *>(element)) {
        element->setMinimumSize(QSize());
        element->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
        return;
    }
    element->setMinimumSize(text.isEmpty() ? QSize(1, 1) : QSize());
    element->setMaximumSize(QWIDGETSIZE_MAX, text.isEmpty() ? 1 : QWIDGETSIZE_MAX);
}

QCPTextElement *resetWithTitle(QCustomPlot *plot)
{
    preparePlot(plot);
    plot->clearPlottables();
    plot->clearItems();
    plot->plotLayout()->clear();
    plot->plotLayout()->setRowSpacing(0);
    QFont font = plot->font();
    font.setBold(true);
    auto *title = new MeasuredTextElement(plot, QString(), font);
    FigureRoom::setRole(title, TextRole::Title);
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

QCPLegend *legendRow(QCustomPlot *plot, QCPLayoutGrid *layout, int row, int wrap)
{
    // Empty columns either side take the room the legend does not need.
    auto *centred = new QCPLayoutGrid;
    layout->addElement(row, 0, centred);
    layout->setRowStretchFactor(row, 0.001);
    auto *legend = new QCPLegend;
    centred->addElement(0, 1, legend);
    centred->expandTo(1, 3);
    centred->setColumnStretchFactors({1.0, 0.001, 1.0});
    legend->setLayer(u"legend"_s);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(wrap);
    legend->setColumnSpacing(12);
    legend->setFont(plot->font());
    legend->setIconSize(18, 8);
    return legend;
}

namespace {

// QCustomPlot's log ticker, whose ticks are powers of ten but for a range shorter than about a
// decade, which gets linear steps: then "gb" at precision 0 would turn 60 into 6·10¹, so such
// an axis labels its ticks from 0.001 to 9999 as plain numbers. A decade is written 10⁻⁵ in
// superscript digits, one text at the axis's size, where QCustomPlot's "beautiful" powers draw
// the exponent smaller than the text asked for.
class LogTicker : public KeepClearLogTicker
{
protected:
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override
    {
        QVector<double> ticks = QCPAxisTickerLog::createTickVector(tickStep, range);
        m_linear = std::any_of(ticks.cbegin(), ticks.cend(), [](double tick) {
            const double exponent = std::log10(std::abs(tick));
            return tick != 0.0 && std::abs(exponent - std::round(exponent)) > 1e-9;
        });
        return ticks;
    }

    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override
    {
        const double magnitude = std::abs(tick);
        if (m_linear && magnitude >= 1e-3 && magnitude < 1e4)
            return locale.toString(tick, 'g', 4);
        const double exponent = std::log10(magnitude);
        if (tick > 0.0 && std::abs(exponent - std::round(exponent)) <= 1e-9)
            return powerOfTen(static_cast<int>(std::round(exponent)));
        return QCPAxisTickerLog::getTickLabel(tick, locale, formatChar, precision);
    }

private:
    bool m_linear = false;
};

} // namespace

void showLonePoint(QCPGraph *graph)
{
    const QColor color = graph->pen().color();
    graph->setScatterStyle(graph->dataCount() == 1 ? QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 7)
                                                   : QCPScatterStyle(QCPScatterStyle::ssNone));
}

QString powerOfTen(int exponent)
{
    static const QString digits = u"⁰¹²³⁴⁵⁶⁷⁸⁹"_s;
    QString power;
    for (const QChar digit : QString::number(std::abs(exponent)))
        power += digits.at(digit.digitValue());
    return u"10"_s + (exponent < 0 ? u"⁻"_s : QString()) + power;
}

void setLogAxis(QCPAxis *axis, int subTicks)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new LogTicker);
    ticker->setSubTickCount(subTicks);
    axis->setTicker(ticker);
    axis->setNumberFormat(u"g"_s);
    axis->setNumberPrecision(0);
}

QCPTextElement *panelTitle(QCustomPlot *plot, bool bold)
{
    QFont font = plot->font();
    font.setBold(bold);
    auto *title = new MeasuredTextElement(plot, QString(), font);
    title->setMargins(QMargins(2, 1, 2, 1));
    FigureRoom::setRole(title, TextRole::PanelTitle);
    return title;
}

QCPTextElement *smallText(QCustomPlot *plot, QCPLayoutGrid *grid, int row, int col, TextRole role)
{
    auto *text = new MeasuredTextElement(plot, QString(), plot->font());
    FigureRoom::setRole(text, role);
    grid->addElement(row, col, text);
    return text;
}

void widenHairlines(QCustomPlot *plot)
{
    const auto widen = [](const QPen &pen, const auto &set) {
        if (pen.widthF() <= 0.0 && pen.style() != Qt::NoPen) {
            QPen wide = pen;
            wide.setWidthF(1.0);
            set(wide);
        }
    };
    // Every axis, a colour bar's frame too (the axes of its own axis rect, children of the plot's).
    for (QCPAxis *axis : plot->findChildren<QCPAxis *>()) {
        widen(axis->basePen(), [axis](const QPen &pen) { axis->setBasePen(pen); });
        widen(axis->tickPen(), [axis](const QPen &pen) { axis->setTickPen(pen); });
        widen(axis->subTickPen(), [axis](const QPen &pen) { axis->setSubTickPen(pen); });
        QCPGrid *grid = axis->grid();
        widen(grid->pen(), [grid](const QPen &pen) { grid->setPen(pen); });
        widen(grid->subGridPen(), [grid](const QPen &pen) { grid->setSubGridPen(pen); });
        widen(grid->zeroLinePen(), [grid](const QPen &pen) { grid->setZeroLinePen(pen); });
    }
    for (QCPLegend *legend : plot->findChildren<QCPLegend *>()) {
        widen(legend->borderPen(), [legend](const QPen &pen) { legend->setBorderPen(pen); });
        widen(legend->iconBorderPen(), [legend](const QPen &pen) { legend->setIconBorderPen(pen); });
    }
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *plottable = plot->plottable(i);
        widen(plottable->pen(), [plottable](const QPen &pen) { plottable->setPen(pen); });
    }
    // Items (lines, shapes, labels' frames) have their pens as a property each.
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem *item = plot->item(i);
        const QVariant pen = item->property("pen");
        if (pen.canConvert<QPen>())
            widen(pen.value<QPen>(), [item](const QPen &wide) { item->setProperty("pen", wide); });
    }
}

} // namespace posenc::PlotStyle
