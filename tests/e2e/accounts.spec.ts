import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { User } from "~/models/user.server";
import { createUser } from "../setup/factories";
import { encodeMockUser, MOCK_USER_PARAM, type MockGoogleUser } from "../setup/oauth-server";
import { expect, test as base } from "./fixtures";

/** Adds a user with a password (for the real login form) to the shared fixtures. */
const test = base.extend<{ createUser: typeof createUser }>({
  createUser: async ({ db: _db }, use) => {
    await use(createUser);
  },
});

const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const RED = "rgb(185, 28, 28)"; // Tailwind red-700

function mainNav(page: Page) {
  return page.getByRole("navigation", { name: "Main" });
}

async function expectSignedOut(page: Page) {
  await expect(mainNav(page).getByRole("link", { name: "Login" }).first()).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
}

test.describe("sign-up", () => {
  test("shows each validation message next to its field", async ({ page, checkA11y, javaScriptEnabled }) => {
    await page.goto("/signup");
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await expect(page.getByLabel("Name")).toHaveAccessibleDescription("Name is Required");
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Email is Required");
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription("Password is Required");

    await page.getByLabel("Name").fill("Val Idation");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password").fill("12345");
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Provide a valid Email");
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription("Must be 6 characters or longer");
    await expect(page.getByText("Provide a valid Email")).toHaveCSS("color", RED);
    await expect(page.getByLabel("Name")).not.toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/signup$/);
    if (javaScriptEnabled) await checkA11y(); // axe runs inside the page
  });

  test("a password that is easy to guess is refused with the reason, and no account is made", async ({ page }) => {
    const email = uniqueEmail("guessable");
    await page.goto("/signup");
    await expect(page.getByText("not a common password, the shop's name, your email or your name")).toBeVisible();
    await page.getByLabel("Name").fill("Gus Guessable");
    await page.getByLabel("Email").fill(email);
    for (const [password, reason] of [
      ["zzzzzz", /repeated characters/],
      ["partsworks", /made of the shop's name, your email or your name/],
      ["letmein!", /This password is too common/],
    ] as const) {
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign Up", exact: true }).click();
      await expect(page.getByLabel("Password")).toHaveAccessibleDescription(reason);
      await expect(page).toHaveURL(/\/signup$/);
    }
    await page.screenshot({ path: test.info().outputPath("signup-guessable.png"), fullPage: true });
  });

  test("creates the account, signs in and lands on the catalogue, not the profile form", async ({ page }) => {
    const email = uniqueEmail("signup");
    await page.goto("/signup");
    await expect(page.getByRole("link", { name: "Please login" })).toHaveAttribute("href", "/login");
    await page.getByLabel("Name").fill("Sam Signup");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("secret-pass");
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await expect(page).toHaveURL(/\/parts$/);
    await expect(page.getByRole("status").first()).toContainText("Welcome to PartsWorks, Sam Signup!");
    await expect(mainNav(page).getByTestId("nav-user-name").first()).toHaveText("Sam Signup");
  });

  test("an email that already has an account gets an error in red next to the email field", async ({
    page,
    createUser,
  }) => {
    const existing = await createUser();
    await page.goto("/signup");
    await page.getByLabel("Name").fill("Second Try");
    await page.getByLabel("Email").fill(existing.email);
    await page.getByLabel("Password").fill("secret-pass");
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("An account with this email already exists");
    await expect(page.getByText("An account with this email already exists")).toHaveCSS("color", RED);
    expect(await User.countDocuments({ email: existing.email })).toBe(1);
  });
});

test.describe("login", () => {
  test("shows each validation message next to its field", async ({ page, checkA11y, javaScriptEnabled }) => {
    await page.goto("/login");
    await expect(page.getByRole("link", { name: "Create a new account" })).toHaveAttribute("href", "/signup");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Email is Required");
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription("Password is Required");

    await page.getByLabel("Email").fill("nobody@nowhere");
    await page.getByLabel("Password").fill("123");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Provide a valid Email");
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription("Must be 6 characters or longer");
    if (javaScriptEnabled) await checkA11y(); // axe runs inside the page
  });

  test("a wrong password shows a message in red that does not say whether the email exists", async ({
    page,
    createUser,
    javaScriptEnabled,
  }) => {
    const user = await createUser();
    for (const email of [user.email, uniqueEmail("nobody")]) {
      await page.goto("/login");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("wrong-password");
      await page.getByRole("button", { name: "Login", exact: true }).click();
      await expect(page.getByText("Invalid email or password")).toBeVisible();
      await expect(page.getByText("Invalid email or password")).toHaveCSS("color", RED);
      // The server never sends the password back.
      if (!javaScriptEnabled) await expect(page.getByLabel("Password")).toHaveValue("");
    }
  });

  test("a guesser waits after 10 wrong passwords: the form keeps the email and says when; a colleague still gets in", async ({
    page,
    createUser,
    javaScriptEnabled,
  }) => {
    test.slow(); // twelve sign-ins, four of them through the form
    const user = await createUser();
    const colleague = await createUser({ name: "Cora Colleague" });
    const submit = async (email: string, password: string) => {
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(password);
      const answer = page.waitForResponse((response) => response.request().method() === "POST");
      await page.getByRole("button", { name: "Login", exact: true }).click();
      return (await answer).status();
    };
    // The first eight guesses are the same form's POST sent by this browser without the form (the
    // count is per email and address); how the form shows a wrong password is the test above's.
    await page.goto("/login");
    const statuses = await page.evaluate(async (email) => {
      const answers: number[] = [];
      for (let guess = 1; guess <= 8; guess++) {
        const body = new URLSearchParams({ email, password: `wrong-guess-${guess}` });
        answers.push((await fetch("/login", { method: "POST", body, redirect: "manual" })).status);
      }
      return answers;
    }, user.email);
    expect(statuses).toEqual(Array(8).fill(401));
    expect(await submit(user.email, "wrong-guess-9")).toBe(401);
    await expect(page.getByText("Invalid email or password")).toBeVisible();
    const wait = page.getByText(
      "Too many failed sign-ins for this email from your network. Please try again in 15 minutes.",
    );
    expect(await submit(user.email, "wrong-guess-10")).toBe(429);
    await expect(wait).toBeVisible();
    await expect(wait).toHaveCSS("color", RED);
    await expect(page.getByLabel("Email")).toHaveValue(user.email);
    if (!javaScriptEnabled) await expect(page.getByLabel("Password")).toHaveValue("");
    // Even the right password waits now, for this email at this address.
    expect(await submit(user.email, user.password)).toBe(429);
    await expect(wait).toBeVisible();
    // A colleague at the same address signs in as usual.
    await submit(colleague.email, colleague.password);
    await expect(page).toHaveURL(/\/dashboard\/orders$/);
    await expect(mainNav(page).getByTestId("nav-user-name").first()).toHaveText("Cora Colleague");
  });

  test("returns to the protected page that sent the visitor to login", async ({ page, createUser }) => {
    const user = await createUser({ name: "Rita Return" });
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId("profile-details")).toContainText(user.email);
  });

  test("returns to the page where the visitor clicked Login", async ({ page, createUser }) => {
    const user = await createUser();
    await page.goto("/?from=e2e-login");
    await mainNav(page).getByRole("link", { name: "Login" }).first().click();
    await expect(page).toHaveURL(/\/login/);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page).toHaveURL(/\/\?from=e2e-login$/);
    await expect(mainNav(page).getByRole("button", { name: "Sign Out" }).first()).toBeVisible();
  });
});

test("sign-out ends the session", async ({ page, login }) => {
  await login({ name: "Olly Out" });
  await page.goto("/");
  await expect(mainNav(page).getByTestId("nav-user-name").first()).toHaveText("Olly Out");
  await mainNav(page).getByRole("button", { name: "Sign Out" }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("toast")).toContainText("You have signed out.");
  await expect(mainNav(page).getByText("Olly Out")).toHaveCount(0);
  await expectSignedOut(page);
});

test.describe("dashboard", () => {
  test("the drawer shows a customer's items", async ({ page, login, checkA11y, javaScriptEnabled }) => {
    await login();
    await page.goto("/dashboard");
    const drawer = page.getByRole("navigation", { name: "Dashboard" });
    for (const label of ["My Profile", "My Orders", "Add A Review"]) {
      await expect(drawer.getByRole("link", { name: label })).toBeVisible();
    }
    for (const label of ["All Users", "Add Product", "Manage Products", "Manage Orders"]) {
      await expect(drawer.getByRole("link", { name: label })).toHaveCount(0);
    }
    await expect(drawer.getByRole("link", { name: "My Orders" })).toHaveAttribute("href", "/dashboard/orders");
    if (javaScriptEnabled) await checkA11y(); // axe runs inside the page
  });

  test("the drawer shows an admin's items", async ({ page, login }) => {
    await login({ role: "admin" });
    await page.goto("/dashboard");
    const drawer = page.getByRole("navigation", { name: "Dashboard" });
    const expected: [string, string][] = [
      ["My Profile", "/dashboard"],
      ["All Users", "/dashboard/allUsers"],
      ["Add Product", "/dashboard/addProduct"],
      ["Manage Products", "/dashboard/manageProducts"],
      ["Manage Orders", "/dashboard/manageOrders"],
    ];
    for (const [label, href] of expected) {
      await expect(drawer.getByRole("link", { name: label })).toHaveAttribute("href", href);
    }
    for (const label of ["My Orders", "Add A Review"]) {
      await expect(drawer.getByRole("link", { name: label })).toHaveCount(0);
    }
  });

  test("on a small screen the drawer opens from its button, with or without JavaScript", async ({ page, login }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await login();
    await page.goto("/dashboard");
    const drawer = page.getByRole("navigation", { name: "Dashboard" });
    await expect(drawer).toBeHidden();
    await page.getByText("Dashboard menu").click();
    await expect(drawer.getByRole("link", { name: "My Orders" })).toBeVisible();
  });

  test("My Profile shows the details and saves an edit: 'Update profile successfully'", async ({
    page,
    login,
    checkA11y,
    javaScriptEnabled,
  }) => {
    test.slow(); // axe over the whole profile (company form and address book included) on a shared machine
    const user = await login({ name: "Edda Edit" });
    await page.goto("/dashboard");
    const details = page.getByTestId("profile-details");
    await expect(details).toContainText(user.email);
    await expect(details).toContainText("Customer");
    await expect(page.getByRole("img", { name: "Edda Edit's profile picture" })).toHaveAttribute(
      "src",
      "/images/default-avatar.svg",
    );
    if (javaScriptEnabled) await checkA11y(); // axe runs inside the page

    // The profile form (the company form and the address book above it have their own name and address fields).
    const form = page.getByRole("region", { name: "Update profile" });
    // No picture address to type: the avatar is the Google account's picture or the default one.
    await expect(form.getByLabel("Photo URL")).toHaveCount(0);
    await form.getByLabel("Phone number").fill("call me");
    await page.getByRole("button", { name: "Update profile" }).click();
    await expect(form.getByLabel("Phone number")).toHaveAccessibleDescription(
      /^Enter a phone number: digits, spaces and/,
    );

    await form.getByLabel("Name", { exact: true }).fill("Edda Edited");
    await form.getByLabel("Phone number").fill("+1 555 0100");
    // The profile's own address stays one free-text box (delivery addresses have fields).
    await form.getByLabel("Address", { exact: true }).fill("7 Piston Road, Springfield");
    await form.getByLabel("Education").fill("Automotive Technology Diploma");
    await form.getByLabel("LinkedIn").fill("https://www.linkedin.com/in/edda");
    await page.getByRole("button", { name: "Update profile" }).click();

    const toast = page.getByTestId("toast");
    await expect(toast).toHaveText(/Update profile successfully/);
    for (const text of ["Edda Edited", "+1 555 0100", "7 Piston Road, Springfield", "Automotive Technology Diploma"]) {
      await expect(details).toContainText(text);
    }
    await expect(details.getByRole("link", { name: "https://www.linkedin.com/in/edda" })).toBeVisible();
    await expect(page.getByRole("img", { name: "Edda Edited's profile picture" })).toHaveAttribute(
      "src",
      "/images/default-avatar.svg",
    );
    if (javaScriptEnabled) {
      // The success message lasts 1500 ms (the other toasts 5000 ms).
      await expect(toast).toBeHidden({ timeout: 3000 });
    }
  });

  test("a customer opening All Users is signed out and sent to login with the reason", async ({ page, login }) => {
    await login();
    await page.goto("/dashboard/allUsers");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId("toast")).toContainText("That page is for admins only, so you have been signed out.");
    await expectSignedOut(page);
  });

  test("an admin makes a customer an admin from All Users", async ({
    page,
    login,
    createUser,
    checkA11y,
    javaScriptEnabled,
  }) => {
    await login({ role: "admin" });
    const customer = await createUser({ name: "Mona Promote" });
    await page.goto("/dashboard/allUsers");
    await expect(page.getByRole("heading", { name: "All Users" })).toBeVisible();
    const row = page.getByTestId("user-row").filter({ hasText: customer.email });
    await expect(row).toContainText("Customer");
    if (javaScriptEnabled) await checkA11y(); // axe runs inside the page
    // A confirmation first: a dialog with JavaScript, a page without; nothing changes until it is confirmed.
    await row.getByRole("link", { name: "Make Admin (Mona Promote)" }).click();
    const confirm = javaScriptEnabled ? page.getByRole("dialog") : page.getByRole("main");
    await expect(confirm.getByRole("heading", { name: "Make Mona Promote an admin?" })).toBeVisible();
    await expect(confirm).toContainText(`Mona Promote (${customer.email}) gets every admin screen at once`);
    if (!javaScriptEnabled) await expect(page).toHaveURL(new RegExp(`/dashboard/allUsers/${customer.id}/make-admin$`));
    expect((await User.findById(customer.id).lean())?.role).toBe("customer");
    await confirm.getByRole("button", { name: "Make Admin" }).click();
    await expect(page.getByTestId("toast")).toContainText("Successfully made an admin");
    await expect(page).toHaveURL(/\/dashboard\/allUsers$/);
    await expect(row).toContainText("Admin");
    await expect(row.getByRole("link", { name: /Make Admin/ })).toHaveCount(0);
    expect((await User.findById(customer.id).lean())?.role).toBe("admin");
  });
});

test.describe("Google sign-in (local OAuth2 server)", () => {
  async function asGoogleUser(page: Page, user: MockGoogleUser) {
    const google = new URL(process.env.GOOGLE_AUTHORIZATION_URL!);
    await page.context().addCookies([{ name: MOCK_USER_PARAM, value: encodeMockUser(user), url: google.origin }]);
  }

  test("Continue with Google signs in and comes back to the page", async ({ page }) => {
    const id = randomUUID().slice(0, 8);
    await asGoogleUser(page, {
      sub: `e2e-${id}`,
      email: `e2e-google-${id}@example.com`,
      email_verified: true,
      name: `Gale Google ${id}`,
    });
    await page.goto("/login?redirectTo=%2Fdashboard");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(mainNav(page).getByTestId("nav-user-name").first()).toHaveText(`Gale Google ${id}`);
    await expect(page.getByTestId("profile-details")).toContainText(`e2e-google-${id}@example.com`);
  });

  test("a cancelled Google sign-in comes back to login with a message in red", async ({ page }) => {
    await asGoogleUser(page, { error: "access_denied" });
    await page.goto("/signup");
    await page.getByRole("button", { name: "Sign up with Google" }).click();
    await expect(page).toHaveURL(/\/login\?googleError=cancelled/);
    const message = page.getByTestId("google-error");
    await expect(message).toHaveText(/Google sign-in was cancelled/);
    await expect(message).toHaveCSS("color", "rgb(153, 27, 27)"); // red-800 on red-50
    await expect(mainNav(page).getByRole("link", { name: "Login" }).first()).toBeVisible();
  });
});
