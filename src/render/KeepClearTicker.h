#pragma once

#include "QCustomPlot.h"

#include <QPointer>

#include <algorithm>
#include <array>
#include <optional>

namespace posenc {

// What a ticker whose tick labels may keep clear of a stretch at the far end of their axis
// knows: there a step of FigureRoom set the axis's label in the row of its tick labels
// (Steps::labelsAlongTicks). A label that would reach into the stretch is left blank, its tick
// still drawn. On little room its numbers may also be written short (Steps::shortenTickNumbers).
class KeepsClear
{
public:
    virtual ~KeepsClear() = default;
    // `axis`'s labels keep clear of its last `pixels` (layout units), at the end where its range's
    // upper end is drawn: the right end of an axis across, the top end of one up the side (the
    // left and bottom ends of reversed ones). Zero or less, they keep clear of nothing.
    void keepClear(QCPAxis *axis, double pixels);
    double keptClear() const { return m_axis ? m_pixels : 0.0; }
    // Whether the stretch it keeps clear of is up a side (an axis up the side's).
    bool keepsClearUpSide() const { return m_axis && m_axis->orientation() == Qt::Vertical; }
    // `axis`'s labels keep clear of a corner of its panel: the rect's `side` across the axis (the
    // bottom or top of an axis up the side, the left or right of one across), where the tick
    // labels of the axis along that side stand `beyond` layout units out of it. A label reaching
    // further out of that side is left blank, its tick still drawn: matplotlib's authors prune a
    // locator's end tick (MaxNLocator's prune) where two axes' first numbers would meet. A null
    // axis keeps clear of no corner (Steps::pruneCornerTicks).
    void keepCornerClear(QCPAxis *axis, Qt::Edge side, double beyond);
    bool keepsCornerClear() const { return m_cornerAxis; }
    // Thousands and millions written with k and M where that is shorter ("1000" is "1k",
    // "20000" "20k"), one format an axis (shortNumbers): the same number, read as in matplotlib's
    // EngFormatter.
    void setShortNumbers(bool shortNumbers) { m_shortNumbers = shortNumbers; }
    bool shortNumbers() const { return m_shortNumbers; }

    // `label` written short, if it is a number of whole thousands (or millions, ...) that that
    // shortens; else `label`.
    static QString shortNumber(const QString &label);
    // An axis's `labels` written short as one: its numbers of a thousand and more all in units of
    // a thousand, a million, ... ("1k", "1.5k"), or all as they are where one cannot be said
    // exactly in two decimals of its unit or would read longer so ("1.25k" for "1250").
    static QVector<QString> shortNumbers(const QVector<QString> &labels);

    // Whether the labels it made last, keeping clear, leave its axis's scale readable: two numbers
    // at least within the axis's range, or every number it made there where it made fewer (a
    // reader needs two of an axis's numbers to read its scale; why-sqrt-d's log axis of d_model
    // kept only its 10² on a 14-pt slide). True while it keeps clear of nothing.
    bool leavesScale() const { return !m_axis || m_left >= std::min(2, m_made); }
    // Whether the labels it made last, keeping clear, leave its axis enough numbers: three at least
    // within the range, or two with no more than one blanked. True while it keeps clear of nothing.
    // A label along its tick labels that leaves two and blanks more leaves ticks unnumbered that a
    // wider step numbers (FigureFit's fitTicks: left-padding's Δ score kept two of five).
    bool numbersEnough() const { return !m_axis || m_left >= 3 || (m_left >= 2 && m_made - m_left <= 1); }
    // Whether the labels it made last, keeping clear of a label across at its row's end, blank
    // none and leave two numbers at least: the row's last (largest) number, which gives the axis's
    // range, stands beside the label, not under it. True while it keeps clear of nothing or of a
    // stretch up a side. A careful author thins an axis's inner ticks rather than set its title in
    // the place of its last number (FigureFit's fitTicks; head-map's "column" stood where the 400 was).
    bool keepsLastNumber() const
    {
        return !m_axis || m_axis->orientation() != Qt::Horizontal || (m_left == m_made && m_left >= 2);
    }

    // Whether the labels it made last, keeping clear, leave its axis `least` numbers at least and
    // blank its end label at most: a title along its tick labels in the place of the number at its
    // axis's end alone, or of none where `none`. True while it keeps clear of nothing. A careful
    // author thins an axis's inner ticks to an even step rather than set its title in the place of
    // several numbers (FigureFit's fitTicks: dropout-on-sum's rows for MAE ViT-B/16 on a 14-pt slide
    // read 0, 10, 20 up to 60, "position" in the place of 40, 50 and 60). With `least` 2, the tick
    // row's rule (docs/ARCHITECTURE.md): the end number's place at most, two numbers kept.
    bool takesEndAtMost(bool none = false, int least = 3) const
    {
        return !m_axis || (m_left >= least && m_made - m_left <= (none ? 0 : 1));
    }

protected:
    // Writes the labels short where asked, then blanks those of `ticks` that reach into the stretch
    // or out past the corner they keep clear of.
    void blank(const QVector<double> &ticks, QVector<QString> *labels) const;

private:
    void blankCorner(const QVector<double> &ticks, QVector<QString> *labels) const;

private:
    QPointer<QCPAxis> m_axis;
    double m_pixels = 0.0;
    bool m_shortNumbers = false;
    QPointer<QCPAxis> m_cornerAxis;
    Qt::Edge m_cornerSide = Qt::BottomEdge;
    double m_beyond = 0.0;
    // The numbers its last labels showed within the axis's range, and how many of them blank() left.
    mutable int m_made = 0;
    mutable int m_left = 0;
};

// The tick level FigureFit's fitTicks sets, weighed from the most ticks down by what the ticker
// that keeps clear (none for another kind) made at each level whose labels do not touch: under a
// label along them, the first that leaves three numbers and blanks none; else the first that
// blanks the end one alone and leaves three (takesEndAtMost: an even step rather than the title in
// the place of several numbers, and the title in the place of the end number rather than an axis
// of two: rope-score's distances at a column read "0 [k = n − m]" up to 2,048 alone); else the
// first that blanks none and leaves two (keepsLastNumber); else the first that blanks the end one
// alone and leaves two, the tick row's rule (rope-score's "score" at 6 x 4 cm stood in the place of
// 0.5 and 1 over the numbers -1 to 0, where "-1 0 [score]" keeps it; up a side, where
// keepsLastNumber holds at every level, before it: rope-score's "score" up its column at 6 x 4 cm
// stood in the place of 0.75 and 1 over "0 0.25 0.5", where "0 0.5 [score]" keeps it); else the
// first with enough numbers (numbersEnough); else the first apart.
class TickChoice
{
public:
    explicit TickChoice(const KeepsClear *clearing)
        : m_clearing(clearing)
        , m_along(clearing && clearing->keptClear() > 0.0)
        , m_upSide(clearing && clearing->keepsClearUpSide())
    { }
    void weigh(int level)
    {
        m_apart = m_apart.value_or(level);
        if (!m_clearing || m_clearing->numbersEnough())
            m_numbered = m_numbered.value_or(level);
        if (m_along && m_clearing->takesEndAtMost(true))
            m_clear = level;
        if (m_along && m_clearing->takesEndAtMost())
            m_endAlone = m_endAlone.value_or(level);
        if (!m_clearing || m_clearing->keepsLastNumber())
            m_whole = m_whole.value_or(level);
        if (m_along && m_clearing->takesEndAtMost(false, 2))
            m_ruled = m_ruled.value_or(level);
    }
    // Whether no level further down can be chosen over those weighed.
    bool done() const { return m_clear || (m_whole && !m_along); }
    int level(int least) const
    {
        const std::optional<int> first = m_clear ? m_clear : m_endAlone;
        const std::optional<int> numbered = m_numbered ? m_numbered : m_apart;
        if (m_upSide)
            return first.value_or(m_ruled.value_or(m_whole.value_or(numbered.value_or(least))));
        return first.value_or(m_whole.value_or(m_ruled.value_or(numbered.value_or(least))));
    }

private:
    const KeepsClear *m_clearing;
    bool m_along;
    bool m_upSide;
    std::optional<int> m_apart, m_numbered, m_whole, m_ruled, m_endAlone, m_clear;
};

// The ticks, sub-ticks and labels a ticker made lately, and what it made them of: an axis asks for
// them again at every layout and fitting round, a view's dozens a change, most for the same range;
// FigureFit's fitTicks tries each level from its figure's own down at every round, and the layout
// asks for the level set, so the last few are kept (kKeptTickSets), the last made first.
struct KeptTicks
{
    // The range's ends and the ticker's origin by their bits (-0 apart from 0), and the ticker's
    // settings that QCustomPlot's linear and log tickers read (`settings`: strategy, counts, base).
    struct Key
    {
        std::array<quint64, 3> bits {};
        QLocale locale;
        QChar formatChar;
        int precision = 0;
        std::array<double, 4> settings {};
        bool operator==(const Key &) const = default;
    };
    Key key;
    QVector<double> ticks, subTicks;
    QVector<QString> labels;
};
inline constexpr qsizetype kKeptTickSets = 8; // an axis's levels tried, from its own count down

// The ticks, sub-ticks and labels of `kept`'s entry for `key` (an entry of a key and the three, as
// KeptTicks), made into a new entry by `make(ticks, subTicks, labels)` where none is; a new entry
// goes first, and the one made longest ago past kKeptTickSets is dropped. An entry found stays where
// it is: moving it first moved each entry before it a place, its locale copied each time (an axis's
// levels tried in turn find theirs deep in the list: 4 % of masked-dropout's fitting's samples).
template<typename Entry, typename Key, typename Make>
void keptOrMade(QList<Entry> &kept, const Key &key, Make make, QVector<double> &ticks, QVector<double> *subTicks,
                QVector<QString> *tickLabels)
{
    auto found = std::find_if(kept.cbegin(), kept.cend(), [&key](const Entry &one) { return one.key == key; });
    if (found == kept.cend()) {
        Entry made {key, {}, {}, {}};
        make(made.ticks, &made.subTicks, &made.labels);
        if (kept.size() >= kKeptTickSets)
            kept.removeLast();
        kept.prepend(std::move(made));
        found = kept.cbegin();
    }
    const Entry &entry = *found;
    ticks = entry.ticks;
    if (subTicks)
        *subTicks = entry.subTicks;
    if (tickLabels)
        *tickLabels = entry.labels;
}

// As QCPAxisTicker, keeping clear; IndexTicker is one, and one stands in for a plain ticker.
// It keeps the ticks of its last ranges and settings (KeptTicks): QCPAxisTicker::generate is a
// function of them alone.
class KeepClearTicker : public QCPAxisTicker, public KeepsClear
{
public:
    void generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision, QVector<double> &ticks,
                  QVector<double> *subTicks, QVector<QString> *tickLabels) override;

protected:
    // What a kind derived from it reads besides QCPAxisTicker's settings to make its ticks and
    // labels, for the key of those it keeps; none makes them anew each time (a derived kind that
    // does not say).
    virtual std::optional<double> ownSetting() const;

private:
    QList<KeptTicks> m_kept;
};

// As QCPAxisTickerLog, keeping clear (PlotStyle's log axes tick with one), its last ticks kept as a
// plain KeepClearTicker's are: a kind derived from it makes its ticks and labels of the range, the
// locale, the format, the precision and QCPAxisTickerLog's settings alone (PlotStyle's LogTicker).
class KeepClearLogTicker : public QCPAxisTickerLog, public KeepsClear
{
public:
    void generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision, QVector<double> &ticks,
                  QVector<double> *subTicks, QVector<QString> *tickLabels) override;

private:
    QList<KeptTicks> m_kept;
};

} // namespace posenc
