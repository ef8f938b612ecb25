#pragma once

#include "core/ParamTable.h"

#include <QList>
#include <QObject>
#include <QString>

#include <optional>
#include <variant>

class QComboBox;
class QLabel;
class QLineEdit;
class QWidget;

namespace posenc {

// The control of one parameter, built from its row of the parameter table (docs/ARCHITECTURE.md,
// "The parameter table"): a label in the command line's words, the input widgets its kind calls
// for (a spin box with a slider, a chooser, a text field, a check box, a matrix's source with a
// button), and the label its errors show in. It shows a value and reads one back as a value,
// never as text: the control panel assigns it to the parameters through the row.
//
// Widgets are named after the row's objectName: dModelLabel, dModelSpin, dModelSlider,
// dModelError, baseEdit, layoutCombo, evalCheck, seedSpin and newSeedButton, a custom value's
// scaleEdit.
class ParamControl : public QObject
{
    Q_OBJECT

public:
    // `custom`: the row of a ChoiceOrNumber's number (custom-scale for scale), whose field sits
    // beside the chooser.
    ParamControl(const ParamSpec &row, const ParamSpec *custom, QWidget *parent);

    const ParamSpec &row() const { return m_row; }
    const ParamSpec *customRow() const { return m_custom; }
    QLabel *label() const { return m_label; }
    QWidget *field() const { return m_field; } // what sits beside the label
    QLabel *errorLabel() const { return m_error; }
    // The widgets the row's tooltip and enabled state go to: its label and inputs.
    QList<QWidget *> widgets() const;
    // The custom number's field, for its own row's tooltip and enabled state.
    QList<QWidget *> customWidgets() const;

    // Shows the value of `params`, emitting nothing.
    void show(const Params &params);
    // Assigns what the control shows to `params`, or gives why it cannot be read (a number field
    // whose text is no number).
    std::optional<ParamError> assignTo(Params &params) const;
    // Whether a text field holds a typed value not yet entered.
    bool hasPendingEdit() const;

signals:
    // The user changed the value (an entered text, a chosen entry, a moved slider).
    void edited();
    // A matrix's button: load another file for this parameter.
    void loadRequested(const QString &key);

private:
    void build();
    std::optional<ParamValue> fieldValue() const;

    const ParamSpec &m_row;
    const ParamSpec *m_custom;
    QLabel *m_label;
    QWidget *m_field;
    QLabel *m_error;
    QList<QWidget *> m_inputs;
    QLineEdit *m_edit = nullptr; // Number, IndexList, OptionalNumber, NumberList, ChoiceOrNumber's custom number
    QComboBox *m_combo = nullptr;
};

} // namespace posenc
