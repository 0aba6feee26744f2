import java.io.FileInputStream;
import java.io.InputStream;
import org.verapdf.gf.foundry.VeraGreenfieldFoundryProvider;
import org.verapdf.pdfa.Foundries;
import org.verapdf.pdfa.PDFAParser;
import org.verapdf.pdfa.PDFAValidator;
import org.verapdf.pdfa.flavours.PDFAFlavour;
import org.verapdf.pdfa.results.TestAssertion;
import org.verapdf.pdfa.results.ValidationResult;

/** Validates PDFs as PDF/A-3b with veraPDF; prints one line a failed rule and exits 1 when any PDF fails. */
public class VeraCheck {
  public static void main(String[] args) throws Exception {
    VeraGreenfieldFoundryProvider.initialise();
    boolean allCompliant = true;
    for (String path : args) {
      try (InputStream in = new FileInputStream(path);
           PDFAParser parser = Foundries.defaultInstance().createParser(in, PDFAFlavour.PDFA_3_B);
           PDFAValidator validator = Foundries.defaultInstance().createValidator(PDFAFlavour.PDFA_3_B, false)) {
        ValidationResult result = validator.validate(parser);
        System.out.println(path + (result.isCompliant() ? " compliant" : " NOT compliant"));
        if (!result.isCompliant()) {
          allCompliant = false;
          for (TestAssertion assertion : result.getTestAssertions()) {
            if (assertion.getStatus() == TestAssertion.Status.FAILED) {
              System.out.println("  " + assertion.getRuleId().getClause() + "-" + assertion.getRuleId().getTestNumber()
                  + " " + assertion.getMessage());
            }
          }
        }
      }
    }
    System.exit(allCompliant ? 0 : 1);
  }
}
