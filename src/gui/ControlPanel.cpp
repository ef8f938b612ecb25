#include "ControlPanel.h"

#include "ui_ControlPanel.h"

#include "FigureJob.h"
#include "ParamControl.h"
#include "ParamLabels.h"
#include "ParamTips.h"

#include "core/FamilySpec.h"
#include "core/MatrixColumns.h"
#include "core/ParamUse.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFont>
#include <QGridLayout>
#include <QLabel>
#include <QStandardItemModel>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The rows the preset chooser's list shows at once, the others a scroll away.
constexpr int kPresetRows = 24;

// The heading of a row's group, as the panel shows it: a family's from its FamilySpec.
QString groupHeading(const ParamSpec &row)
{
    switch (row.group) {
    case ParamGroup::Model:
        return QCoreApplication::translate("ControlPanel", "Model");
    case ParamGroup::Family:
        return Families::spec(*row.family).heading;
    case ParamGroup::Embeddings:
        return QCoreApplication::translate("ControlPanel", "Embeddings");
    case ParamGroup::Dropout:
        return QCoreApplication::translate("ControlPanel", "Dropout");
    case ParamGroup::Batch:
        return QCoreApplication::translate("ControlPanel", "Batch and position ids");
    case ParamGroup::Run:
        return QCoreApplication::translate("ControlPanel", "Run");
    }
    return {};
}

// The section of a row: its group, a family's group each its own.
int sectionOf(const ParamSpec &row)
{
    return row.family ? -1 - static_cast<int>(*row.family) : static_cast<int>(row.group);
}

// The window shows what a person sets: not the memory budget (a command-line limit).
bool shownInPanel(const ParamSpec &row)
{
    return row.isFlag && row.key != u"memory-budget"_s;
}

QString presetTooltip(const Preset &preset)
{
    QString text = u"<b>%1</b><br>%2"_s.arg(preset.title.toHtmlEscaped(), preset.source.toHtmlEscaped());
    if (!preset.note.isEmpty())
        text += u"<br><i>%1</i>"_s.arg(preset.note.toHtmlEscaped());
    QStringList values;
    for (auto it = preset.params.cbegin(); it != preset.params.cend(); ++it)
        values << u"%1 %2"_s.arg(ParamLabels::label(it.key()), it.value()).toHtmlEscaped();
    return text + u"<br>"_s
        + QCoreApplication::translate("ControlPanel", "Sets %1; the rest stays.").arg(values.join(u", "_s));
}

} // namespace

ControlPanel::ControlPanel(QWidget *parent, const QString &presetFolder)
    : QWidget(parent)
    , m_ui(std::make_unique<Ui::ControlPanel>())
    , m_presets(Presets::load(presetFolder).presets)
{
    m_ui->setupUi(this);
    m_ui->presetError->setVisible(false);
    m_tipTimer.setSingleShot(true);
    m_tipTimer.setInterval(int(FigureJob::kRestBeforeRefining.count()));
    connect(&m_tipTimer, &QTimer::timeout, this, &ControlPanel::showStaleTips);
    // The preset's source keeps one line whether a preset is active or not, so that choosing or
    // leaving one never moves the controls under the mouse.
    QLabel *source = m_ui->presetSource;
    source->setWordWrap(false);
    source->setTextInteractionFlags(Qt::NoTextInteraction); // shortened: its whole text is its tooltip's
    source->setMinimumWidth(1);
    source->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    source->setFixedHeight(source->fontMetrics().height());
    fillPresets();
    buildControls();
    setParams(Params {});
    connect(m_ui->presetCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index > 0)
            choosePreset(index - 1);
        else
            showPreset(m_params, true);
    });
}

void ControlPanel::buildControls()
{
    auto *grid = m_ui->grid;
    // The rows go between the presets and the general error, which move to the end.
    QLayoutItem *spacer = grid->itemAtPosition(4, 0);
    grid->removeWidget(m_ui->generalError);
    grid->removeItem(spacer);
    int line = 3;
    std::optional<int> section;
    for (const ParamSpec &row : ParamTable::rows()) {
        if (!shownInPanel(row))
            continue;
        if (sectionOf(row) != section) {
            section = sectionOf(row);
            auto *heading = new QLabel(groupHeading(row), this);
            heading->setObjectName(row.objectName + u"Heading"_s);
            QFont bold = heading->font();
            bold.setBold(true);
            heading->setFont(bold);
            heading->setContentsMargins(0, line > 3 ? 8 : 0, 0, 0);
            grid->addWidget(heading, line++, 0, 1, 2);
            if (row.family)
                m_familyWidgets[*row.family].append(heading);
        }
        const ParamSpec *custom = nullptr;
        if (row.kind == ParamKind::ChoiceOrNumber) {
            for (const ParamSpec &other : ParamTable::rows()) {
                if (!other.isFlag && other.parentKey == row.key)
                    custom = &other;
            }
        }
        auto *control = new ParamControl(row, custom, this);
        m_controls.append(control);
        grid->addWidget(control->label(), line, 0);
        grid->addWidget(control->field(), line++, 1);
        grid->addWidget(control->errorLabel(), line++, 1);
        m_errorLabels.insert(row.key, control->errorLabel());
        m_controlsOf.insert(row.key, control->widgets());
        if (custom)
            m_controlsOf.insert(custom->key, control->customWidgets());
        for (const QString &key : custom ? QStringList {row.key, custom->key} : QStringList {row.key}) {
            for (QWidget *w : m_controlsOf.value(key)) {
                m_keyOf.insert(w, key);
                w->installEventFilter(this);
            }
        }
        if (row.family)
            m_familyWidgets[*row.family] += {control->label(), control->field()};
        connect(control, &ParamControl::edited, this, &ControlPanel::readControls);
        connect(control, &ParamControl::loadRequested, this, &ControlPanel::loadRequested);
    }
    grid->addWidget(m_ui->generalError, line++, 0, 1, 2);
    grid->addItem(spacer, line, 0, 1, 2);
    assignMnemonics();
}

void ControlPanel::assignMnemonics()
{
    // Letters taken wherever the panel is: the menu bar's (File, Edit, View, Lessons, Help) and
    // the preset chooser's. tst_accessibility checks this list against the window's menu bar.
    static const QString kTaken = u"fevlhp"_s;
    // The index of a letter of `text` not in `used` nor in `avoid`: one that begins a word when
    // `initials`, any letter otherwise; -1 when there is none.
    const auto choose = [](const QString &text, const QString &used, bool initials, const QString &avoid) {
        for (qsizetype i = 0; i < text.size(); ++i) {
            const QChar c = text.at(i).toLower();
            const bool starts = i == 0 || !text.at(i - 1).isLetter();
            if (c.isLetter() && c.unicode() < 128 && !used.contains(c) && !avoid.contains(c) && (starts || !initials))
                return i;
        }
        return qsizetype(-1);
    };
    const auto mark = [](QLabel *label, qsizetype i, QString &used) {
        const QString text = label->text();
        used += text.at(i).toLower();
        label->setText(text.left(i) + u'&' + text.mid(i));
    };
    const auto pick = [&](QLabel *label, QString &used, bool initials, const QString &avoid = {}) {
        if (label->text().contains(u'&'))
            return;
        if (const qsizetype i = choose(label->text(), used, initials, avoid); i >= 0)
            mark(label, i, used);
    };
    // The shared groups are shown with every family's, which replace each other: the shared
    // labels take their letters first, and a family may reuse another family's letters, never a
    // shared one's. Initials go first: a shared label's later letter is one no family's label
    // begins a word with where it can be, so "base" keeps its b against the e-m-b of "embeddings".
    QList<ParamControl *> shared;
    QHash<Encoding, QList<ParamControl *>> families;
    for (ParamControl *control : std::as_const(m_controls)) {
        if (control->row().family)
            families[*control->row().family].append(control);
        else
            shared.append(control);
    }
    QString sharedUsed = kTaken;
    for (ParamControl *control : std::as_const(shared))
        pick(control->label(), sharedUsed, true);
    // The initials the families would take, to leave them where a shared label has another letter.
    QString familyInitials;
    for (auto it = families.cbegin(); it != families.cend(); ++it) {
        QString used = sharedUsed;
        for (ParamControl *control : it.value()) {
            if (const qsizetype i = choose(control->label()->text(), used, true, {}); i >= 0)
                used += control->label()->text().at(i).toLower();
        }
        familyInitials += used.mid(sharedUsed.size());
    }
    for (ParamControl *control : std::as_const(shared)) {
        pick(control->label(), sharedUsed, false, familyInitials);
        pick(control->label(), sharedUsed, false);
    }
    for (auto it = families.cbegin(); it != families.cend(); ++it) {
        QString used = sharedUsed;
        for (ParamControl *control : it.value())
            pick(control->label(), used, true);
        for (ParamControl *control : it.value())
            pick(control->label(), used, false);
    }
}

void ControlPanel::showFamily(Encoding encoding)
{
    for (auto it = m_familyWidgets.cbegin(); it != m_familyWidgets.cend(); ++it) {
        for (QWidget *w : it.value())
            w->setVisible(it.key() == encoding);
    }
    // The rows the family reads of another family's group (FamilySpec::borrows), under that
    // group's heading, the first of its widgets.
    const FamilySpec &chosen = Families::spec(encoding);
    for (const ParamControl *control : std::as_const(m_controls)) {
        const ParamSpec &row = control->row();
        if (!row.family || *row.family == encoding || !chosen.borrowsRow(*row.family, row.key))
            continue;
        m_familyWidgets[*row.family].front()->setVisible(true);
        control->label()->setVisible(true);
        control->field()->setVisible(true);
    }
}

ControlPanel::~ControlPanel() = default;

void ControlPanel::fillPresets()
{
    QComboBox *combo = m_ui->presetCombo;
    // "custom" is what the chooser reads when no preset has all the parameters; not a choice.
    combo->addItem(tr("custom"));
    combo->setItemData(0, tr("The parameters as the controls set them: no preset has all of them."), Qt::ToolTipRole);
    if (auto *model = qobject_cast<QStandardItemModel *>(combo->model()))
        model->item(0)->setEnabled(false);
    for (const Preset &preset : std::as_const(m_presets)) {
        combo->addItem(preset.title);
        combo->setItemData(combo->count() - 1, presetTooltip(preset), Qt::ToolTipRole);
    }
    // The style's menu-like popup takes the screen's height and hides the presets past it behind a
    // scroll arrow (at 768 pixels, a dozen of them): a drop-down list with a scroll bar instead.
    combo->setStyleSheet(u"QComboBox { combobox-popup: 0; }"_s);
    combo->setMaxVisibleItems(kPresetRows);
    m_ui->presetLabel->setToolTip(tr("Parameter values from a published source: choosing one sets every parameter "
                                     "it names and leaves the others as they are."));
}

void ControlPanel::setParams(const Params &params)
{
    m_updating = true;
    for (ParamControl *control : std::as_const(m_controls))
        control->show(params);
    m_params = params;
    showFamily(params.encoding);
    showErrors({});
    showUse(params, {});
    showPreset(params, false);
    m_updating = false;
}

void ControlPanel::applyParams(const Params &params)
{
    const bool changed = !(params == m_params);
    setParams(params);
    if (changed)
        emit paramsChanged(m_params);
}

void ControlPanel::commitPendingEdits()
{
    // A spin box reads its text on Return or leaving it (no keyboard tracking): its valueChanged
    // reads the controls when the text differs from its value.
    for (QAbstractSpinBox *spin : findChildren<QAbstractSpinBox *>())
        spin->interpretText();
    const bool pending = std::any_of(m_controls.cbegin(), m_controls.cend(),
                                     [](const ParamControl *control) { return control->hasPendingEdit(); });
    if (pending)
        readControls();
}

bool ControlPanel::choosePreset(int index)
{
    if (index < 0 || index >= m_presets.size())
        return false;
    const Preset &preset = m_presets[index];
    auto applied = m_presetReading ? m_presetReading(preset, m_params) : preset.applyTo(m_params);
    if (const auto *errors = std::get_if<QList<ParamError>>(&applied)) {
        QStringList reasons;
        for (const ParamError &e : *errors)
            reasons << ParamLabels::text(e);
        m_ui->presetError->setText(tr("%1 was not applied: %2").arg(preset.title, reasons.join(u"; "_s)));
        m_ui->presetError->setVisible(true);
        showPreset(m_params, true);
        return false;
    }
    m_ui->presetError->setVisible(false);
    m_activePreset = static_cast<int>(index);
    emit presetChosen(m_activePreset);
    applyParams(std::get<Params>(applied));
    return true;
}

bool ControlPanel::namePreset(const QString &name)
{
    const auto found
        = std::find_if(m_presets.cbegin(), m_presets.cend(), [&](const Preset &preset) { return preset.name == name; });
    if (found == m_presets.cend() || !found->matches(m_params))
        return false;
    m_activePreset = static_cast<int>(found - m_presets.cbegin());
    showPreset(m_params, true); // still active: it stays named
    return true;
}

void ControlPanel::readControls()
{
    if (m_updating)
        return;
    Params next = m_params; // keeps what no control shows: a loaded matrix, the memory budget
    QList<ParamError> errors;
    for (const ParamControl *control : std::as_const(m_controls)) {
        if (auto error = control->assignTo(next))
            errors.append(*error);
    }
    // A loaded matrix fixes d_model: its columns, plus the position term's in a concatenation.
    if (next.embeddings)
        next.dModel = dModelOfMatrix(next, next.embeddings->values.cols());
    if (errors.isEmpty())
        errors = next.validate();
    showErrors(errors);
    showFamily(next.encoding);
    // What the controls say decides what they enable; while they say something invalid, the
    // last valid parameters do.
    showUse(errors.isEmpty() ? next : m_params, errors, true);
    if (!errors.isEmpty() || next == m_params)
        return;
    m_params = next;
    m_ui->presetError->setVisible(false);
    showPreset(m_params, true);
    emit paramsChanged(m_params);
}

QLabel *ControlPanel::errorLabelFor(const QString &key) const
{
    return m_errorLabels.value(key, m_ui->generalError);
}

void ControlPanel::showErrors(const QList<ParamError> &errors)
{
    QHash<QLabel *, QStringList> messages;
    for (const ParamError &e : errors)
        messages[errorLabelFor(e.key)].append(e.sentence());
    QList<QLabel *> labels = m_errorLabels.values();
    labels.append(m_ui->generalError);
    for (QLabel *label : labels) {
        const QStringList text = messages.value(label);
        label->setText(text.join(u"\n"_s));
        label->setVisible(!text.isEmpty());
    }
    m_hasErrors = !errors.isEmpty();
}

QString ControlPanel::errorText(const QString &key) const
{
    const QLabel *label = errorLabelFor(key);
    return label->isVisibleTo(this) ? label->text() : QString();
}

void ControlPanel::showUse(const Params &params, const QList<ParamError> &errors, bool editing)
{
    m_tipParams = params;
    // On screen, a control that cannot be seen (another family's, most of them) has its tooltip
    // written when it shows (eventFilter): writing the formulas of every family's controls at each
    // change took a twentieth of the window's time. While a control moves (a slider dragged, a value
    // typed), the tooltips of the controls already in view are written once the controls have rested
    // (FigureJob::kRestBeforeRefining, as the views refine), or at once where one is hovered or takes
    // the focus: each of them, worded and described again (Accessibility) at every step, took a
    // twentieth of a change's time as well. Off screen, every tooltip is written at once.
    const bool onScreen = isVisible();
    QSet<QString> inView;
    bool waiting = false;
    for (auto it = m_controlsOf.cbegin(); it != m_controlsOf.cend(); ++it) {
        const QString &key = it.key();
        // A control whose value is refused stays enabled, so that it can be put right; a custom
        // number is refused under the key of the parameter it is the number of.
        const QString parent = ParamTable::find(key)->parentKey;
        const bool refused = std::any_of(errors.begin(), errors.end(),
                                         [&](const ParamError &e) { return e.key == key || e.key == parent; });
        const bool enabled = refused || !ParamUse::idle(params, key);
        for (QWidget *w : it.value())
            w->setEnabled(enabled);
        const bool seen = !onScreen
            || std::any_of(it.value().begin(), it.value().end(), [](const QWidget *w) { return w->isVisible(); });
        if (seen && onScreen)
            inView.insert(key);
        if (!seen || (editing && seen && onScreen && m_tipsInView.contains(key))) {
            m_staleTips.insert(key);
            waiting |= seen;
        } else {
            m_staleTips.remove(key);
            showTip(key);
        }
    }
    m_tipsInView = inView;
    if (waiting)
        m_tipTimer.start();
}

void ControlPanel::showTip(const QString &key)
{
    const QString tip = ParamTips::tooltip(key, m_tipParams);
    for (QWidget *w : m_controlsOf.value(key)) {
        // Set only when it changes: every tooltip set is an event, and the widget's description
        // is read from it anew (Accessibility), which took a fifth of the window's time per change.
        if (w->toolTip() != tip)
            w->setToolTip(tip);
    }
}

void ControlPanel::showStaleTips()
{
    for (auto it = m_staleTips.begin(); it != m_staleTips.end();) {
        const QList<QWidget *> widgets = m_controlsOf.value(*it);
        if (std::any_of(widgets.begin(), widgets.end(), [](const QWidget *w) { return w->isVisible(); })) {
            showTip(*it);
            it = m_staleTips.erase(it);
        } else {
            ++it;
        }
    }
}

bool ControlPanel::eventFilter(QObject *watched, QEvent *event)
{
    // Written as the widget shows, before its own show event: the tooltip a user hovers, and the
    // description a reader meets (Accessibility reads it again from the new tooltip), are of the
    // parameters the controls hold. A tooltip left for the controls' rest is written before it shows
    // (QEvent::ToolTip reaches this filter before the widget) or its control takes the focus.
    const QEvent::Type type = event->type();
    if ((type == QEvent::Show || type == QEvent::ToolTip || type == QEvent::FocusIn) && !m_staleTips.isEmpty()) {
        if (const auto key = m_keyOf.constFind(watched); key != m_keyOf.cend() && m_staleTips.remove(*key))
            showTip(*key);
    }
    return QWidget::eventFilter(watched, event);
}

void ControlPanel::showPreset(const Params &params, bool editedByHand)
{
    const bool stillActive = m_activePreset >= 0 && m_presets[m_activePreset].matches(params);
    if (!stillActive) {
        m_activePreset = -1;
        for (qsizetype i = 0; !editedByHand && i < m_presets.size() && m_activePreset < 0; ++i) {
            if (m_presets[i].matches(params))
                m_activePreset = static_cast<int>(i);
        }
    }
    const QSignalBlocker block(m_ui->presetCombo);
    m_ui->presetCombo->setCurrentIndex(m_activePreset + 1);
    m_ui->presetCombo->setToolTip(m_ui->presetCombo->itemData(m_activePreset + 1, Qt::ToolTipRole).toString());
    m_presetSource = m_activePreset >= 0 ? m_presets[m_activePreset].cite : QString();
    m_ui->presetSource->setToolTip(m_ui->presetCombo->toolTip());
    m_ui->presetSource->setAccessibleDescription(m_presetSource);
    showPresetSource();
}

void ControlPanel::showPresetSource()
{
    QLabel *source = m_ui->presetSource;
    source->setText(source->fontMetrics().elidedText(m_presetSource, Qt::ElideRight, std::max(1, source->width())));
}

void ControlPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    showPresetSource();
}

} // namespace posenc
