#include "FigureOptionBar.h"

#include "ParamLabels.h"
#include "SteadyRoom.h"

#include "render/FigureRegistry.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QStyleOptionFrame>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A text option's field at most this wide, in pixels; at least as wide as its placeholder below it.
constexpr int kMaxTextWidth = 320;

// A chooser as wide as its current entry where the view has room, and narrower (its text elided)
// where it has not: a narrow screen's single view keeps its option bar on screen. Its list opens
// as wide as its longest entry (QComboBox::showPopup widens it). Asking for the longest entry's
// width instead made every chooser of a quarter view give up the same share, so even a short
// current entry ("Heatmap") came out elided. It gives up room down to `keptCharacters` of its
// entry: the figure chooser, which names the view, keeps more than an option's box.
class ShrinkingComboBox : public QComboBox
{
public:
    explicit ShrinkingComboBox(QWidget *parent, int keptCharacters = 8)
        : QComboBox(parent)
        , m_keptCharacters(keptCharacters)
    {
        connect(this, &QComboBox::currentTextChanged, this, &QWidget::updateGeometry);
    }

    QSize sizeHint() const override
    {
        QStyleOptionComboBox option;
        initStyleOption(&option);
        const int height = QComboBox::sizeHint().height();
        const int text = fontMetrics().horizontalAdvance(currentText());
        int width = style()->sizeFromContents(QStyle::CT_ComboBox, &option, QSize(text, height), this).width();
        // The style's size can leave its edit field (where the text is drawn) a few pixels short
        // of the text (QCommonStyle draws the label 1 px in from each side): widen it until it holds it.
        option.rect = QRect(0, 0, width, height);
        const int field
            = style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this).width();
        width += std::max(0, text + 2 - field);
        return {width, height};
    }

    QSize minimumSizeHint() const override
    {
        QSize least = QComboBox::minimumSizeHint();
        const int narrow = fontMetrics().averageCharWidth() * m_keptCharacters
            + style()->pixelMetric(QStyle::PM_ScrollBarExtent)
            + 2 * style()->pixelMetric(QStyle::PM_ComboBoxFrameWidth);
        least.setWidth(std::min({least.width(), narrow, sizeHint().width()}));
        return least;
    }

private:
    int m_keptCharacters;
};

// The option controls in rows: as many beside each other as the width holds, each at its size
// hint (a box then shows its entry whole), the rest on the next row. Its size hint is one row.
class ControlRows : public QLayout
{
public:
    explicit ControlRows(QWidget *parent)
        : QLayout(parent)
    {
        setContentsMargins(0, 0, 0, 0);
        setSpacing(4);
    }
    ~ControlRows() override
    {
        while (QLayoutItem *item = takeAt(0))
            delete item;
    }

    void addItem(QLayoutItem *item) override { m_items.append(item); }
    int count() const override { return int(m_items.size()); }
    QLayoutItem *itemAt(int index) const override { return m_items.value(index); }
    QLayoutItem *takeAt(int index) override
    {
        return index >= 0 && index < m_items.size() ? m_items.takeAt(index) : nullptr;
    }
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return place(QRect(0, 0, width, 0), false); }
    QSize sizeHint() const override
    {
        int width = 0, height = 0;
        for (const QLayoutItem *item : m_items) {
            if (item->isEmpty())
                continue;
            width += (width > 0 ? spacing() : 0) + item->sizeHint().width();
            height = std::max(height, item->sizeHint().height());
        }
        return {width, height};
    }
    QSize minimumSize() const override
    {
        QSize least;
        for (const QLayoutItem *item : m_items)
            if (!item->isEmpty())
                least = least.expandedTo(item->minimumSize());
        return least;
    }
    void setGeometry(const QRect &rect) override
    {
        QLayout::setGeometry(rect);
        place(rect, true);
    }

private:
    // Lays the items out in `rect` (where `move`), returning the height they take.
    int place(const QRect &rect, bool move) const
    {
        int x = rect.x(), y = rect.y(), rowHeight = 0;
        for (QLayoutItem *item : m_items) {
            if (item->isEmpty())
                continue;
            const QSize hint = item->sizeHint();
            if (x > rect.x() && x + hint.width() > rect.right() + 1) {
                x = rect.x();
                y += rowHeight + spacing();
                rowHeight = 0;
            }
            if (move)
                item->setGeometry(QRect(QPoint(x, y), QSize(std::min(hint.width(), rect.width()), hint.height())));
            x += hint.width() + spacing();
            rowHeight = std::max(rowHeight, hint.height());
        }
        return y + rowHeight - rect.y();
    }

    QList<QLayoutItem *> m_items;
};

const char *const kInvalid = "invalid";
const QString kInvalidStyle = u"border: 1px solid #c0392b;"_s;
} // namespace

FigureOptionBar::FigureOptionBar(bool chooser, QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_top(new QHBoxLayout)
    , m_controlsBox(new QWidget(this))
    , m_controls(new ControlRows(m_controlsBox))
    , m_refusal(new QLabel(this))
    , m_note(new QLabel(this))
{
    m_rows = new QVBoxLayout(this);
    m_rows->setContentsMargins(0, 0, 0, 0);
    m_rows->setSpacing(2);
    m_rows->addLayout(m_top);
    QHBoxLayout *layout = m_top;
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    if (chooser) {
        constexpr int kChooserCharacters = 24; // "RoPE score against distance" but its last word
        m_chooser = new ShrinkingComboBox(this, kChooserCharacters);
        m_chooser->setObjectName(u"figureBox"_s);
        m_chooser->setToolTip(tr("The figure this view shows"));
        m_chooser->setAccessibleName(tr("Figure"));
        for (const FigureDescriptor *figure : FigureRegistry::all())
            m_chooser->addItem(figure->model().title(), figure->name());
        layout->addWidget(m_chooser);
        connect(m_chooser, &QComboBox::activated, this,
                [this] { emit figureChosen(m_chooser->currentData().toString()); });
    }
    m_title->setVisible(!chooser);
    layout->addWidget(m_title);
    m_controlsBox->setObjectName(u"optionControls"_s);
    layout->addWidget(m_controlsBox);
    m_refusal->setObjectName(u"optionRefusal"_s);
    m_refusal->setStyleSheet(u"color: #b03a2e;"_s);
    m_refusal->setVisible(false);
    layout->addWidget(m_refusal, 1);
    layout->addStretch(0);
    m_note->setObjectName(u"screenNote"_s);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_note->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_note->installEventFilter(this);
    // Its every new text would lay the window out again, for a width the row ignores (SteadyRoom).
    m_noteRoom = new SteadyRoom(m_note, this);
    m_noteRoom->setMinimumWidth(1);
    layout->addWidget(m_noteRoom, 1);
    auto *maximize = new QToolButton(this);
    maximize->setObjectName(u"maximizeButton"_s);
    maximize->setText(u"⤢"_s);
    maximize->setToolTip(tr("Maximise or restore this view (Ctrl+1 to Ctrl+4)"));
    maximize->setAccessibleName(tr("Maximise or restore this view"));
    maximize->setAutoRaise(true);
    layout->addWidget(maximize);
    m_maximize = maximize;
    connect(maximize, &QToolButton::clicked, this, &FigureOptionBar::maximizeRequested);
}

void FigureOptionBar::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    placeControls();
}

bool FigureOptionBar::event(QEvent *event)
{
    // A control's hint changed (a label that follows the parameters, the style's polish on showing):
    // the row that held the controls may no longer, at the same width.
    if (event->type() == QEvent::LayoutRequest)
        placeControls();
    return QWidget::event(event);
}

void FigureOptionBar::placeControls()
{
    // What one row asks for: each shown widget's hint (the note none: it shortens to what is left,
    // the refusal none: it shows only after an edit) and the spacing between them.
    const bool controls = m_controls->count() > 0;
    int wanted = 0, shown = 0;
    QWidget *const name = m_chooser ? static_cast<QWidget *>(m_chooser) : m_title;
    for (QWidget *widget : std::initializer_list<QWidget *> {name, m_controlsBox, m_note, m_maximize}) {
        if (widget == m_controlsBox ? !controls : widget->isHidden())
            continue;
        ++shown;
        if (widget != m_note)
            wanted += widget->sizeHint().width();
    }
    wanted += std::max(0, shown - 1) * m_top->spacing();
    const bool below = controls && wanted > width();
    const bool isBelow = m_rows->indexOf(m_controlsBox) >= 0;
    if (below != isBelow) {
        if (below) {
            m_top->removeWidget(m_controlsBox);
            m_rows->insertWidget(1, m_controlsBox);
        } else {
            m_rows->removeWidget(m_controlsBox);
            m_top->insertWidget(m_top->indexOf(m_title) + 1, m_controlsBox);
        }
        m_controlsBox->setVisible(controls);
    }
    // The note's shortest form whole beside the rest, or the note in a row of its own: at 1366 x
    // 768 the heatmap's read a lone "…" beside its four controls.
    const QString shortest = m_noteText.section(FigureText::kLengthVariants, -1);
    const bool noteBelow
        = !shortest.isEmpty() && m_note->fontMetrics().horizontalAdvance(shortest) > noteRoomInTopRow();
    const bool noteIsBelow = m_rows->indexOf(m_noteRoom) >= 0;
    if (noteBelow == noteIsBelow)
        return;
    if (noteBelow) {
        m_top->removeWidget(m_noteRoom);
        m_rows->addWidget(m_noteRoom);
    } else {
        m_rows->removeWidget(m_noteRoom);
        m_top->insertWidget(m_top->indexOf(m_maximize), m_noteRoom, 1);
    }
}

int FigureOptionBar::noteRoomInTopRow() const
{
    int taken = 0, shown = 1; // the note
    QWidget *const name = m_chooser ? static_cast<QWidget *>(m_chooser) : m_title;
    const bool controls = m_controls->count() > 0 && m_rows->indexOf(m_controlsBox) < 0;
    for (QWidget *widget : std::initializer_list<QWidget *> {name, m_controlsBox, m_maximize}) {
        if (widget == m_controlsBox ? !controls : widget->isHidden())
            continue;
        ++shown;
        taken += widget->sizeHint().width();
    }
    return width() - taken - (shown - 1) * m_top->spacing();
}

void FigureOptionBar::setNote(const QString &note)
{
    // The same note is where it was, at the width it has (a resize places it again).
    if (note == m_noteText)
        return;
    m_noteText = note;
    m_note->setToolTip(this->note());
    m_note->setAccessibleName(this->note());
    placeControls();
    showNote();
}

void FigureOptionBar::showNote()
{
    // The first form that holds whole, else the last elided (QFontMetrics reads the variants).
    m_note->setText(m_note->fontMetrics().elidedText(m_noteText, Qt::ElideRight, std::max(1, m_note->width())));
}

bool FigureOptionBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_note && event->type() == QEvent::Resize)
        showNote();
    return QWidget::eventFilter(watched, event);
}

void FigureOptionBar::clearControls()
{
    m_refusal->clear();
    m_refusal->setVisible(false);
    for (QWidget *control : std::as_const(m_controlOf))
        delete control;
    m_controlOf.clear();
    m_controls->invalidate();
    m_labelFor.clear();
    m_availableFor.clear();
}

QWidget *FigureOptionBar::makeControl(const FigureOption &option)
{
    const QString key = option.key;
    switch (option.kind) {
    case FigureOption::Kind::Choice: {
        auto *box = new ShrinkingComboBox(this);
        box->setObjectName(key + u"Box"_s);
        for (qsizetype i = 0; i < option.choices.size(); ++i)
            box->addItem(option.choiceLabels.value(i, option.choices[i]), option.choices[i]);
        connect(box, &QComboBox::currentIndexChanged, this,
                [this, box, key] { emit optionEdited(key, box->currentData().toString()); });
        return box;
    }
    case FigureOption::Kind::Switch: {
        auto *check = new QCheckBox(ParamLabels::label(key), this);
        check->setObjectName(key + u"Check"_s);
        connect(check, &QCheckBox::toggled, this,
                [this, key](bool on) { emit optionEdited(key, on ? u"true"_s : u"false"_s); });
        return check;
    }
    case FigureOption::Kind::Text: {
        auto *edit = new QLineEdit(this);
        edit->setObjectName(key + u"Edit"_s);
        edit->setMaximumWidth(kMaxTextWidth);
        connect(edit, &QLineEdit::editingFinished, this,
                [this, edit, key] { emit optionEdited(key, edit->text().trimmed()); });
        return edit;
    }
    }
    return nullptr;
}

void FigureOptionBar::setFigure(const FigureDescriptor &figure, const FigureState &state, const Params &params)
{
    clearControls();
    m_figure = &figure;
    m_title->setText(u"<b>%1</b>"_s.arg(figure.model().title()));
    if (m_chooser) {
        const QSignalBlocker block(m_chooser);
        m_chooser->setCurrentIndex(m_chooser->findData(figure.name()));
        // Its width follows its entry (ShrinkingComboBox), which it is not told of with its signals
        // blocked: the last figure's width stayed ("Heatmap"'s, "ALiBi sl…" after it).
        m_chooser->updateGeometry();
    }
    for (const FigureOption &option : figure.model().options()) {
        if (!option.inWindow)
            continue;
        QWidget *control = makeControl(option);
        control->setToolTip(option.help);
        control->setAccessibleName(ParamLabels::label(option.key));
        if (option.choiceLabelFor)
            m_labelFor.insert(option.key, option.choiceLabelFor);
        if (option.choiceAvailable)
            m_availableFor.insert(option.key, option.choiceAvailable);
        m_controls->addWidget(control);
        m_controlOf.insert(option.key, control);
    }
    m_controlsBox->setVisible(m_controls->count() > 0);
    showState(state, params);
    placeControls();
}

void FigureOptionBar::showState(const FigureState &state, const Params &params)
{
    if (!m_figure)
        return;
    // The chooser offers the figures of the chosen encoding family.
    // Its entries are the registry's figures in order (the constructor's), looked up by position:
    // by name, each view looked every figure up at every change.
    if (auto *list = m_chooser ? qobject_cast<QListView *>(m_chooser->view()) : nullptr) {
        const QList<const FigureDescriptor *> &figures = FigureRegistry::all();
        for (int i = 0; i < m_chooser->count() && i < figures.size(); ++i) {
            const FigureDescriptor *figure = figures[i];
            const bool hidden = figure != m_figure && !figure->model().appliesTo(params);
            if (list->isRowHidden(i) != hidden)
                list->setRowHidden(i, hidden);
        }
    }
    // Whether a box shows another entry or label: only then is the bar laid out again (most
    // changes of parameters leave every control as it was, and a layout a view a change was a
    // tenth of the window's time).
    bool moved = false;
    for (auto it = m_controlOf.cbegin(); it != m_controlOf.cend(); ++it) {
        const QString key = it.key();
        const QSignalBlocker block(it.value());
        const QString fallback = m_figure->model().defaultText(key, params);
        if (auto *box = qobject_cast<QComboBox *>(it.value())) {
            bool relabelled = false;
            if (const auto labelFor = m_labelFor.value(key)) {
                // Only a label that changed: setting one relays the bar out, at every change.
                for (int i = 0; i < box->count(); ++i) {
                    const QString label = labelFor(box->itemData(i).toString(), params);
                    if (box->itemText(i) != label) {
                        box->setItemText(i, label);
                        relabelled = true;
                    }
                }
            }
            // A choice the parameters do not have (another family's quantity) is not offered.
            if (const auto available = m_availableFor.value(key))
                if (auto *list = qobject_cast<QListView *>(box->view()))
                    for (int i = 0; i < box->count(); ++i)
                        list->setRowHidden(i, !available(box->itemData(i).toString(), params));
            const int index = std::max(0, box->findData(state.option(key, fallback)));
            if (relabelled || index != box->currentIndex()) {
                box->setCurrentIndex(index);
                box->updateGeometry(); // as the chooser's: its width follows its entry
                moved = true;
            }
        } else if (auto *check = qobject_cast<QCheckBox *>(it.value()))
            check->setChecked(state.option(key, fallback) == u"true"_s);
        else if (auto *edit = qobject_cast<QLineEdit *>(it.value())) {
            edit->setText(state.option(key));
            const QString placeholder = tr("%1 (default %2)").arg(ParamLabels::label(key), fallback);
            edit->setPlaceholderText(placeholder);
            // Wide enough to show its placeholder whole (the default is what an empty field means).
            QStyleOptionFrame frame;
            frame.initFrom(edit);
            const QSize text(edit->fontMetrics().horizontalAdvance(placeholder)
                                 + 2 * edit->fontMetrics().averageCharWidth(),
                             edit->fontMetrics().height());
            const int wide = edit->style()->sizeFromContents(QStyle::CT_LineEdit, &frame, text, edit).width();
            moved |= edit->minimumWidth() != std::min(wide, kMaxTextWidth);
            edit->setMinimumWidth(std::min(wide, kMaxTextWidth));
        }
    }
    // A label that follows the parameters may have widened its box past the row's room.
    if (moved)
        placeControls();
}

void FigureOptionBar::markOption(const QString &key, const QString &reason)
{
    QWidget *control = m_controlOf.value(key);
    if (!control)
        return;
    const bool invalid = !reason.isEmpty();
    control->setProperty(kInvalid, invalid);
    control->setStyleSheet(invalid ? kInvalidStyle : QString());
    const auto option = m_figure ? m_figure->model().option(key) : std::nullopt;
    control->setToolTip(invalid ? reason : option ? option->help : QString());
    // The reason stays in view beside the field, shortened to the room a title bar has.
    constexpr int kRefusalWidth = 360;
    m_refusal->setText(invalid ? fontMetrics().elidedText(reason, Qt::ElideRight, kRefusalWidth) : QString());
    m_refusal->setToolTip(reason);
    m_refusal->setVisible(invalid);
}

} // namespace posenc
